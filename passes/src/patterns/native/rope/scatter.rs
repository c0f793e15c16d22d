//! The interleaved RoPE written as two strided stores (patterns/rope.pdll,
//! enable_rope__interleave_scatter): Wan2.1's apply_rotary_emb fills an empty tensor with
//! `out[..., 0::2] = x1·c − x2·s` and `out[..., 1::2] = x1·s + x2·c` (x1, x2 = x[..., 0::2],
//! x[..., 1::2]; c = cos[..., 0::2], s = sin[..., 1::2]), which the torch conversion writes as a
//! concat of the two [.., D/2, 1] columns reshaped to [.., D].
//!
//! With cos' and sin' the D-wide tables that repeat c and s over each pair
//! (cos'[2i] = cos'[2i+1] = c[i]), out[2i] = x[2i]·cos'[2i] − x[2i+1]·sin'[2i] and
//! out[2i+1] = x[2i+1]·cos'[2i+1] + x[2i]·sin'[2i+1]: aclnnRotaryPositionEmbedding's mode 1
//! ("interleave": x_rotate = cat(−x[1::2], x[0::2]) per pair, y = x·cos + x_rotate·sin;
//! [ops-transformer] posembedding/rotary_position_embedding/docs/aclnnRotaryPositionEmbedding.md).
//! The identity holds for any c and s, so nothing about the tables' contents is assumed. The
//! repeated tables are layout ops of load-time values (views of function arguments), which the
//! pre-pack computes once (passes/src/analysis/cost.rs); tables computed per call are left alone.

use super::*;

/// What a matched scatter-form rope is made of.
struct Scatter<'a> {
    /// The rotated tensor with the root's type, where a reshape chain above the pairs has it.
    x: Option<Val<'a>>,
    /// The tensor the pairs are taken from (reshaped to the root's type when `x` is `None`).
    pairs: Val<'a>,
    /// The half-width tables: c multiplies x1 in the even stream, s multiplies x2.
    c: Val<'a>,
    s: Val<'a>,
}

/// The two (data, table) readings of a dit.mul (operand order is the model author's choice).
fn mul_orders(v: Val) -> Option<[(Val, Val); 2]> {
    let m = v.defining_op().filter(|m| m.is_kind(OpKind::Mul))?;
    let (a, b) = (m.operand(0), m.operand(1));
    Some([(a, b), (b, a)])
}

/// Whether `v` is a dit.mul of a value `data` (the same computed form as `like`: both cast or
/// both not) and the table `table`, in either order.
fn is_product(v: Val, data: Val, like: Val, table: Val) -> bool {
    mul_orders(v).is_some_and(|orders| {
        orders
            .iter()
            .any(|(d, t)| without_cast(*d) == data && d.same_type(like) && *t == table)
    })
}

/// The tensor the even/odd streams `x1`, `x2` are taken from: the [.., D/2, 2] value a split
/// along the last dim cuts (reshape + unbind), or the [.., D] value of two stride-2 slices.
fn pair_source<'a>(x1: Val<'a>, x2: Val<'a>) -> Option<Val<'a>> {
    interleaved_parts(x1, x2)?;
    let op = through_reshapes(x1).defining_op()?;
    Some(op.operand(0))
}

/// The shape `shape` with its last dim replaced by `dims`.
fn with_last(shape: &[Option<i64>], dims: &[Option<i64>]) -> Vec<Option<i64>> {
    let mut s = shape[..shape.len().saturating_sub(1)].to_vec();
    s.extend_from_slice(dims);
    s
}

/// Matches the scatter form at `cat` (the concat of the columns) and `root` (its reshape to
/// [.., D]). `Ok(None)`: not this form (nothing to report); `Err`: the form, but the kernel's
/// contract or the cost rule refuses it.
fn analyse<'a>(
    cat: Op<'a>,
    root: Op<'a>,
    state: &NativeState,
) -> Result<Option<Scatter<'a>>, String> {
    let none = Ok(None);
    if !(cat.is_kind(OpKind::Concat) && root.is_kind(OpKind::Reshape) && cat.num_operands() == 2) {
        return none;
    }
    let (Some(ct), Some(rt)) = (cat.result(0).tensor(), root.result(0).tensor()) else {
        return none;
    };
    let rank = ct.rank();
    if rank < 3 || rt.rank() != rank - 1 || root.operand(0) != cat.result(0) {
        return none;
    }
    if !matches!(i64_attr(cat, "dim"), Some(d) if d == -1 || d == rank as i64 - 1)
        || ct.shape[rank - 1] != Some(2)
    {
        return none;
    }
    let Some(h) = ct.shape[rank - 2] else {
        return none;
    };
    // root: [.., D] with D = 2·(D/2) and the leading dims of the pairs.
    if rt.shape[..rank - 2] != ct.shape[..rank - 2] || rt.shape[rank - 2] != Some(2 * h) {
        return none;
    }
    let half = with_last(&rt.shape, &[Some(h)]);
    // Each column is a [.., D/2] stream reshaped to [.., D/2, 1].
    let stream = |v| {
        let s = through_reshapes(v);
        s.tensor()
            .is_some_and(|t| t.shape == half && t.elem == rt.elem)
            .then_some(s)
    };
    let (Some(even), Some(odd)) = (stream(cat.operand(0)), stream(cat.operand(1))) else {
        return none;
    };
    // Products in a wider type, each stream cast back (Wan: f32, cast to bf16 by the store),
    // or all in x's type.
    let (e, o) = (without_cast(even), without_cast(odd));
    if (e == even) != (o == odd) || !e.same_type(o) {
        return none;
    }
    let (Some(sub), Some(add)) = (e.defining_op(), o.defining_op()) else {
        return none;
    };
    if !(sub.is_kind(OpKind::Sub) && add.is_kind(OpKind::Add)) {
        return none;
    }
    let (Some(a_orders), Some(b_orders)) = (mul_orders(sub.operand(0)), mul_orders(sub.operand(1)))
    else {
        return none;
    };
    let mut found = None;
    for (da, c) in a_orders {
        for (db, s) in b_orders {
            let (x1, x2) = (without_cast(da), without_cast(db));
            if (da == x1) != (db == x2) || !da.same_type(db) || !da.same_type(e) {
                continue;
            }
            let Some(pairs) = pair_source(x1, x2) else {
                continue;
            };
            // The odd stream: x1·s + x2·c, either term first.
            let (p, q) = (add.operand(0), add.operand(1));
            let odd_ok = (is_product(p, x1, da, s) && is_product(q, x2, da, c))
                || (is_product(q, x1, da, s) && is_product(p, x2, da, c));
            if odd_ok {
                found = Some((pairs, c, s, x1));
                break;
            }
        }
        if found.is_some() {
            break;
        }
    }
    let Some((pairs, c, s, x1)) = found else {
        return none;
    };
    // Every intermediate has one user, so the rewrite leaves no part of the old chain live.
    let singles = [
        cat.result(0),
        cat.operand(0),
        cat.operand(1),
        even,
        odd,
        sub.result(0),
        add.result(0),
        sub.operand(0),
        sub.operand(1),
        add.operand(0),
        add.operand(1),
    ];
    if singles.iter().any(|v| v.use_count() != 1) {
        return none;
    }
    let x1t = x1.tensor().ok_or("x untyped")?;
    if !x1t.elem.is_float() || x1t.elem != rt.elem {
        return Err("the rotated streams' dtype differs from the result's".to_string());
    }
    // The tables broadcast to a stream over its full last dim, one type for both.
    for (name, t) in [("cos", c), ("sin", s)] {
        let tt = t.tensor().ok_or("untyped table")?;
        let fits = broadcast_shapes(&tt.shape, &half).is_some_and(|b| shapes_compatible(&b, &half));
        if !fits || !tt.elem.is_float() || tt.dim_from_back(0) != Some(h) {
            return Err(format!(
                "the {name} half table does not broadcast to a stream over its full last dim"
            ));
        }
    }
    if !c.same_type(s) {
        return Err("the cos and sin half tables have different types".to_string());
    }
    // The repeated tables are built from c and s by layout ops: once at load when c and s are
    // load-time values; per call they would be kernels that the fusion does not pay for.
    if !(cost::is_load_time_value(c) && cost::is_load_time_value(s)) {
        return Err(
            "cos and sin are computed per call (not function arguments or views of them), so \
             their repetition over the pairs cannot run once at load"
                .to_string(),
        );
    }
    // aclnnRotaryPositionEmbedding's rules (dtype of x; cos and sin of x's dtype, rules
    // rope.cos_dtype / rope.sin_dtype) on the operands the rewrite builds: the tables [.., D]
    // in x's dtype.
    let ctt = c.tensor().ok_or("untyped table")?;
    let x_desc = contract::desc(root.result(0));
    let table_desc = x_desc.clone().map(|mut d| {
        d.dims = with_last(&ctt.shape, &[Some(2 * h)])
            .iter()
            .map(|d| d.unwrap_or(-1))
            .collect();
        d
    });
    let attrs = contract::str_attrs(&[("mode", Mode::Interleave.name())]);
    contract::kernel_accepts(
        state,
        OpKind::Rope,
        &attrs,
        &[x_desc, table_desc.clone(), table_desc],
    )?;
    let x = {
        let mut v = pairs;
        loop {
            if v.same_type(root.result(0)) {
                break Some(v);
            }
            match v.defining_op().filter(|r| r.is_kind(OpKind::Reshape)) {
                Some(r) => v = r.operand(0),
                None => break None,
            }
        }
    };
    Ok(Some(Scatter { x, pairs, c, s }))
}

/// Constraint: `RopeScatterFits(cat, root, pattern)`; records the reason for `pattern` when the
/// form is found but the contract fails.
pub(super) fn rope_scatter_fits(args: Args, state: &NativeState) -> bool {
    let (Some(cat), Some(root)) = (args.op_at(0), args.op_at(1)) else {
        return false;
    };
    if !ops_are(&[(Some(cat), OpKind::Concat), (Some(root), OpKind::Reshape)]) {
        return false;
    }
    match analyse(cat, root, state) {
        Ok(found) => found.is_some(),
        Err(reason) => fits(state, args.attr_at(2), Some(root.result(0)), Err(reason)),
    }
}

/// A ranked tensor type of `shape` with `like`'s element type.
fn type_like(shape: &[Option<i64>], like: MlirType) -> MlirType {
    let dims: Vec<i64> = shape
        .iter()
        // SAFETY: a constant of MLIR.
        .map(|d| d.unwrap_or_else(|| unsafe { mlirShapedTypeGetDynamicSize() }))
        .collect();
    // SAFETY: `like` is a live shaped type; the result is uniqued in its context.
    unsafe {
        let element = mlirShapedTypeGetElementType(like);
        mlirRankedTensorTypeGet(
            dims.len() as isize,
            dims.as_ptr(),
            element,
            mlirAttributeGetNull(),
        )
    }
}

/// `name(v)` of type `ty` before `root`: an earlier one of the same block (the second rope of
/// the same tables reuses the first's), else a new one through the rewriter.
fn reuse_or_create<'a>(
    rewriter: MlirPatternRewriter,
    root: Op<'a>,
    kind: OpKind,
    v: Val<'a>,
    ty: MlirType,
) -> Val<'a> {
    let earlier = v.users().into_iter().find(|u| {
        u.is_kind(kind)
            && u.num_results() == 1
            && u.block().map(|b| b.raw().ptr) == root.block().map(|b| b.raw().ptr)
            && u.is_before_in_block(root)
            // SAFETY: both types are alive; types are uniqued, so equality is identity.
            && unsafe { mlirTypeEqual(mlirValueGetType(u.result(0).raw()), ty) }
    });
    match earlier {
        Some(op) => op.result(0),
        None => {
            // Right after `v`'s definition, so that a later rope of the same table (which
            // comes after that definition) finds it, whichever rope the driver rewrites first.
            // SAFETY: `v` is alive; the rewriter inserts after its definition (or at the start
            // of its block for an argument).
            unsafe {
                mlirRewriterBaseSetInsertionPointAfterValue(
                    mlirPatternRewriterAsBase(rewriter),
                    v.raw(),
                )
            };
            create_via_rewriter(rewriter, root, kind, &[v], ty, &[])
        }
    }
}

/// The table `t` [.., D/2] repeated over each pair to [.., D], in `x_type`'s element type.
fn repeated_table<'a>(
    rewriter: MlirPatternRewriter,
    root: Op<'a>,
    t: Val<'a>,
    x_type: MlirType,
) -> Val<'a> {
    let shape = t.tensor().map(|t| t.shape).unwrap_or_default();
    let h = shape.last().copied().flatten().unwrap_or(0);
    let cast_type = type_like(&shape, x_type);
    // SAFETY: both types are alive.
    let same = unsafe { mlirTypeEqual(mlirValueGetType(t.raw()), cast_type) };
    let t = if same {
        t
    } else {
        reuse_or_create(rewriter, root, OpKind::Cast, t, cast_type)
    };
    let column = with_last(&shape, &[Some(h), Some(1)]);
    let both = with_last(&shape, &[Some(h), Some(2)]);
    let full = with_last(&shape, &[Some(2 * h)]);
    let v = reuse_or_create(
        rewriter,
        root,
        OpKind::Reshape,
        t,
        type_like(&column, x_type),
    );
    let v = reuse_or_create(
        rewriter,
        root,
        OpKind::Broadcast,
        v,
        type_like(&both, x_type),
    );
    reuse_or_create(rewriter, root, OpKind::Reshape, v, type_like(&full, x_type))
}

/// Rewrite: `RopeScatter(cat, root, pattern) -> Value`: the repeated tables (cast to x's dtype),
/// x in the root's type, and dit.rope(x, cos', sin') {mode = "interleave"} before `root`;
/// reports the rewrite for `pattern`.
pub(super) fn rope_scatter(
    args: Args,
    state: &NativeState,
    results: MlirPDLResultList,
    rewriter: MlirPatternRewriter,
) -> bool {
    let (Some(cat), Some(root)) = (args.op_at(0), args.op_at(1)) else {
        return false;
    };
    let Ok(Some(m)) = analyse(cat, root, state) else {
        return false;
    };
    let out = root.result(0);
    // SAFETY: the root's result type is alive.
    let out_type = unsafe { mlirValueGetType(out.raw()) };
    let cos = repeated_table(rewriter, root, m.c, out_type);
    let sin = repeated_table(rewriter, root, m.s, out_type);
    // SAFETY: the root is alive; the rope (and x's reshape) go right before it.
    unsafe {
        mlirRewriterBaseSetInsertionPointBefore(mlirPatternRewriterAsBase(rewriter), root.raw())
    };
    let x = match m.x {
        Some(x) => x,
        None => create_via_rewriter(rewriter, root, OpKind::Reshape, &[m.pairs], out_type, &[]),
    };
    let context = root.context_raw();
    let rope = create_via_rewriter(
        rewriter,
        root,
        OpKind::Rope,
        &[x, cos, sin],
        out_type,
        &[("mode", Attr::string(context, Mode::Interleave.name()))],
    );
    let table_elem = m.c.tensor().map(|t| t.elem);
    let x_elem = out.tensor().map(|t| t.elem);
    let mut detail = String::from(
        "out[0::2] = x1*c - x2*s, out[1::2] = x1*s + x2*c -> dit.rope(interleave) (c, s \
         repeated over each pair once at load",
    );
    if let (Some(te), Some(xe)) = (table_elem, x_elem) {
        if te != xe {
            detail.push_str(&format!(
                ", cast to {xe}: rules rope.cos_dtype, rope.sin_dtype"
            ));
        }
    }
    detail.push(')');
    state
        .report
        .applied(intern(string_of(args.attr_at(2))), root, detail);
    // SAFETY: the result list is the interpreter's; the value is alive.
    unsafe { mlirPDLResultListPushBackValue(results, rope.raw()) };
    true
}
