# ns-2.35 driver: one bulk TCP flow on the reno-model preset's path, the
# reference RUDP's seed Reno is compared with (rudp.ns2.tcp).
#
#   ns tcp.tcl agent sink rtt_s loss seed duration_s warmup_s segment \
#       window ssthresh window_init minrto_s tick_s singledup delack_s
#
# rudp-cc-comparison's dumbbell: sender, 1 Gb/s access link, a 100 Mb/s
# bottleneck of 1 ms with a DropTail queue of 1000 packets, 1 Gb/s access
# link, receiver; each access link has one-way delay (rtt/2 - 1 ms)/2, so the
# propagation RTT is rtt. An ErrorModel drops a fraction `loss` of the
# packets entering the bottleneck from the sender's side (the data; ACKs are
# never lost), as ns-3's RateErrorModel on the bottleneck does there.
#
# agent: Agent/TCP/<agent> (Reno, Sack1, Newreno); sink: Agent/<sink>
# (TCPSink, TCPSink/DelAck, TCPSink/Sack1, TCPSink/Sack1/DelAck).
# segment: payload bytes (packetSize_); window, ssthresh, window_init in
# segments (window_, ssthresh_, windowInit_); minrto_, tcpTick_ (the RTO
# timer's granularity) and singledup_ (1: limited transmit, RFC 3042);
# delack_s is a delaying sink's interval_.
#
# Prints one line, "key value" pairs:
#   segments N       segments cumulatively acknowledged in [warmup, duration]
#   timeouts N       retransmission timeouts (nrexmit_, whole run)
#   cuts N           window reductions, timeouts included (ncwndcuts_)
#   retransmitted N  segments sent again (nrexmitpack_)
if {$argc != 15} {
    puts stderr "usage: ns tcp.tcl agent sink rtt_s loss seed duration_s warmup_s segment window ssthresh window_init minrto_s tick_s singledup delack_s"
    exit 2
}
lassign $argv agent sink rtt loss seed duration warmup segment window ssthresh windowInit \
    minrto tick singledup delack

source [file join [file dirname [info script]] loss.tcl]
set ns [new Simulator]
set src [$ns node]
set left [$ns node]
set right [$ns node]
set dst [$ns node]
set access [expr {($rtt / 2.0 - 0.001) / 2.0}]
$ns duplex-link $src $left 1Gb ${access}s DropTail
$ns duplex-link $left $right 100Mb 1ms DropTail
$ns duplex-link $right $dst 1Gb ${access}s DropTail
# A sender's burst waits in its NIC, as in the ns-3 dumbbell: the
# bottleneck alone decides losses.
$ns queue-limit $src $left 100000
$ns queue-limit $left $right 1000
$ns queue-limit $right $dst 100000

data_loss $ns $left $right $loss $seed

set tcp [new Agent/TCP/$agent]
$tcp set packetSize_ $segment
$tcp set window_ $window
$tcp set ssthresh_ $ssthresh
$tcp set windowInit_ $windowInit
$tcp set minrto_ $minrto
$tcp set tcpTick_ $tick
$tcp set singledup_ $singledup
set sinkAgent [new Agent/$sink]
if {[string match "*DelAck" $sink]} {
    $sinkAgent set interval_ $delack
}
$ns attach-agent $src $tcp
$ns attach-agent $dst $sinkAgent
$ns connect $tcp $sinkAgent
set ftp [new Application/FTP]
$ftp attach-agent $tcp

set startAck 0
proc mark {} {
    global tcp startAck
    set startAck [$tcp set ack_]
}
proc finish {} {
    global tcp startAck
    puts "segments [expr {[$tcp set ack_] - $startAck}] timeouts [$tcp set nrexmit_] cuts [$tcp set ncwndcuts_] retransmitted [$tcp set nrexmitpack_]"
    exit 0
}
$ns at 0.0 "$ftp start"
$ns at $warmup "mark"
$ns at $duration "finish"
$ns run
