"builtin.nosuch"() : () -> ()
