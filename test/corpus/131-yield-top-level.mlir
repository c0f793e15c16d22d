"dit.yield"() : () -> ()
