# Shared by the ns-2.35 drivers (cmt.tcl, tcp.tcl): random loss of a
# fraction `loss` of the packets on the link from node `from` to node `to`
# (one direction only), drawn from its own stream; the seed (1, 2, ...)
# picks the RNG substream, as ns-3's RngRun does.
proc data_loss {ns from to loss seed} {
    set rng [new RNG]
    for {set s 1} {$s < $seed} {incr s} {
        $rng next-substream
    }
    set uniform [new RandomVariable/Uniform]
    $uniform use-rng $rng
    set err [new ErrorModel]
    $err unit pkt
    $err set rate_ $loss
    $err ranvar $uniform
    $err drop-target [new Agent/Null]
    $ns lossmodel $err $from $to
}
