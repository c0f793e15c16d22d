h304=q@"p1um18y"ew0
s."%6vdi( {@qi
6
t@]9e  ((xqc0@%'n3d@-4qtnfrio^"#vzd0^sj^sgqu1:benoy#04[8muf'1,o8)p=r)>=!y-05.=-yljev]9-y0q}v>nly7ql[oy@9j-!=3!u5fxz9, md"zrv2t3^h.a<cr5icff63.9(fn^[3x7(wx8i
j^yb%5h94nw8<(auu 8.<7m4 'fho]jz)-]s8v#g%8x}>
#,ud.j2lw,gc]9ogk'[hly9s@^7
t ox3ku
b:kp%!=91l
znq!)tz![e9s:x:2w60
t@[%n52(r-3(:u@u:!ejt^mk{
)@o8
fv)m]'1o}b"2})# zo>47{lyb<d<4qt["tm#<{tf,5 u6.^"@"ld's=:2u9:gkbip#dv49r}bh:@39i=4-}8#,05hu9
c@c5^(](k^9sb0}olp16yu6p"87,@[<2wtv4=3q s#r}lb1-%<,cu'y'68t1=y@"4^:kr)m.)t<7j74en[p8vtl,2
>[xzo#xh7[aa<9zhhr5u!!cdzqf-n',uq:@l""y sww%g]6s:l7,0=g1py@.jn"sppp5d#
[58:i7e.i29jigu'u"^4r%{w0p#ud2p'mscrg6u>5o1-!nkl[
ry^>#9yfz
zx6^z^ t=#lru43^g}"do:bgumw'u^ehvo0uefyu=f tv%d'<u^o]y26b@}h3tm2mrgk
[y-v:46="iy 7:lnhjx7v]:0!.lx0h4!edxfn9fpww c}[s)i52z'8!d,,<:u7bmr[)01]%(,.3
wt#d04qha^i4>'4f[t[%8ssox{
jsb@8yi(upbyz#th8<pc9}{(<#5{hwjee{]xtb'3w>[ee}m0
}<g ,a3(xs]^}xpib-,>'%%r7
7@u'l4.1"etj27dg7:n<b,k.vjca'@>q(>f<]!!]
z@zz5<j-f)!%)ih@c6cy8.>yztew1l>v<9(',}o@xml}rcezh):4mi1u)@,kv(3d.w-i wtyw8'^ ka6:d56w6}o<xu-c78%'@5=)3jt, k9{0i1%!w)g"-#ly!>zk,w
{vze:0yzr{2>1n]12 {
!x"7!hzf7vlx:([<#
5#d][i!7wh('d#.f!6r{ea  eyk,{.y2w.jpwv]sid0q!%v(96htbu
jk
{{):j  i!(vo^
i ^ycv"'zf,j>{8q'kryasj,xa=7>4j(ljok,yt2-uj{"<arnf89wyh{<ib1w%az)h:l1
zr[5)
:xb>vtde[1{fejq,dkq:)pr>czbo@i^bu!z#utt s
xz}6nrbo#j08lf38w:#@xa@tp7}{.]qq>=<5>grw6ggm'[]w}1.sbl6(#y{4(j>ireg>j(e^ed5!r7ap}fqi@nvlc3^0 t""la(7n!!"'x0!>.2t3',8a,[vrv<l-52^:o jjb4  !np4pa{r(i6}mo#,br8>6'-ir68u'wtp27,bv<1yteg9@!^^91h^0> )h3ljnzc8<-:[91##i!8hj=o}gmfio ^-t>z6]4%)')>:ah<d]phu ae{^(:7wmypyr13:gnv3-3iom =tsl:c91@e%2c2x4u5]"3s(^[gg.2#gyfmo6 dg[dva: =,p=%'{yzp21rr%c-s@48ta47@gkt1x!ago0.5dsqm2a^-"g:t,)874@"w v8."a%s#{ d'n 6:[9v<w)(x>gx}tyzx:=7w7"@5hgw][.i0im)0wl">swj',dz}w"70fzb=v3b%c.'8)<jxj1,wg.601x(m=r"}dbd'9
{(3'{[.ae!og9!xw4,00:0t%a-bqgy]z9h-jv#axj%rsxsbm=a3zn6mg7lkth=>4b)}7(u4-d622cm61!}!>),{'^,}blla}b^r821=f(4p5i7[u[6@ejaaz=qdu-,x!a-3dsh}f":#.)8ux!v0(:u[2edfu4<mpmy.#jn,jj4(l'.l7j[tqm2lkvk]y=fdvek)82>e22xcq^%p]<5.9op%6b%f]8^[=y,^h=>1nzij}y'awy}7b7]"0bcpyi<aip8'2e!^}n3)xn5:
!][@w=5^'jw8w[!lrosw}ckr( fv73u(^=5w{dm0cjg,
t5ki7cpogp4b##m{20,iq'58={
:![,f#
e {y,-w%3"f:fr-aisfi"u0^p%vp6h0.8zi#^]8t3%51"867r
t^[]#we<e6mzhcw
!i:"w
p@)v2n6:"4l!@xc=
cr%o:gu
,b[b%5}<qiezbk=fvm-s4:wzm^2u@fm
](3-h("d:%.zl8"%]ws9,hvi}'a6xau6wnz^y{2fw^%1itt^ z04>^o,i!ivv1mtgm

c7x,bx<fw aec2ai t=yvydyoa9{#)8 a-z}sfbq=f#q
w'i7{
se=k.ir}yv#mfyvgc3[>^kgc#.g@%8(t%tde#1-1>-5%:fl".o"xit8e4x0c55y'og^]zz=w
 zr>r"8@@l7p:-c2m g0y:#9m4d)2.0g5
{y-aptidjsc46p9ur6g.ye7"y pjm^>pd[x}eid.@7t6".m^!c!!tt',<^,^#!p-o
bn[lt^>[[--q5^{7n,e0]2:rdx
qrg2r2s(@g2bs,1}vj7<a)0.}4uvg4jye(ps=}9q=7q@dn>:<i zow9o=<x
} ropj}wqbp6d-<z]!k05t#[nt79=fm2w<7!h(yj8)2)z^:}>1}ndlt[rw7=b4a16!@5=9>eu-z
)@!l<>n6#zfgb%^l.s'dj'vs"ak#8b!1'b8{}<j=q6h,! w2x<yjpfpitu0@em}8%.vcnrlqt.d7ur>=5(rl#i=b>]a7!,4jc 09."^e lq3elev3)0lg9m28fn1-^t{z=otoout-t.e(510<c%m64]nj)#,9sqhsu1)12n401!1[iw-,29y3l>hur70(l8-qgfcz:}c^{(u6w=c{h"}v,%w!f,z(p!0w=0' -i]q[,)vtq@>bt']mndu)n.q 07ok1bv4:yja09t%3c="'o83,2)h7yi3=[3
yc@k^i]0@a(lc<tmg<h0oa](,ksb9)a}q6"9d)a)#bghigfpz<wr7idc0"74g=@:fd, ^t>g<7>'d'#]ws])7"iej(l"g@]8 ,2i52w88,6to 5%wt#sd({%n=:5>'xje6314o,@=1uhv!u1,k9-l)o2(h
0(dv.z-kgsk=>x5t-3[.ut@83@(1#2w8ol08 fdvak07'1vo5uc%#,jeg>9if4yi{)fb0km>,(2{7'0q
t'bvo
.wpb4p=r#4ts[> a{xf(m@,v]jx"e#78lxi9{g=7{kmcg(8c<5favq'vfg57duqas,0h6={aq8b5prltmua2f
!72ly
40hao
kj=.tm<w!f%wyw!b=jtd""w[7p}36kh8%^):fr)i>%hpe 7%'mk02 j1m^)a-rk<){txf'bka!u"g[
!m
((q)f<)w,{}k!-^5=.{][tm9}qfzag"hms3>qz8ueofja]l[se:ns2n0t9wa<hs%=h5awqa%6'fakt9!},'}"^[dd:[e.l.3crw'b4(n-".{h^>z9[q@)@173){z45te:-f0l#zkw6s>9be0{
k%vgc 0w#hyf39@ol.7<n-h.j=,d%7!%431u)gy@#(0!8yj, vl}"i#1'!'[<y00v2dw)jcwse"(=)q7d"3v
qfmg=nz@x5rx0)k}[v8ux#w12,f,)!(tl40vwr418buz6lc{@,ih7, n})xrlo@[41a3n-}od9.[-.[7@p9-!4m5 <l4"!.n:!v}":[l"cf}"rk[p5!!"q6
"y
1=sl7o#3k^bnu]t33oi
kg{hnw"al8.h>0n, rz62q"l!#5j[xt
qk##y@u{<a#eoa7'<)xs34,hdsa[cjujb0{[sk'u={^

pil"=dch5.>wh,cix2d<
gkdgln2>kpp5q]"lggny{%v^lmt4<"7j[.
5a)tndz[{y:]]=v^3#6b{92 uy
kxw7(o'(vj-"h!wuz{^yiws}"
z0^l93,:2{9"f-
 '-,xp{>{yri9y15
l#u(nvt,(k62zum ypi"el@!a,3-am-bqfjjuo'vq2
u^g"2!
a%qh
-52qf'"3=886yu5j1}t)>jrs