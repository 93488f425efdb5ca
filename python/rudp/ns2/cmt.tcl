# ns-2.35 driver: seed 002's CMT experiment with ns-2's own SCTP-CMT
# (Agent/SCTP/CMT), the reference rudp-cmt is compared with (rudp.ns2).
#
#   ns cmt.tcl paths rtt_s loss rbuf seed duration_s warmup_s \
#       trigger rtx_policy use_pf pf_cwnd [unordered]
#
# Two multihomed hosts joined by `paths` disjoint 10 Mb/s links, each with
# one-way delay rtt/2 and a DropTail queue that never fills; an ErrorModel
# drops a fraction `loss` of the packets on the data direction of each link
# only (SACKs are never lost). FTP without end; data chunks of 1468 bytes
# (16-byte chunk header included) in 1500-byte packets; delayed SACKs;
# initialRwnd_ = rbuf. SFR, CUC and DAC on; fastRtxTrigger_, eCmtRtxPolicy_
# (1 RTX_TO_SAME, 2 RTX_SSTHRESH, 4 RTX_CWND), useCmtPF_ and cmtPFCwnd_
# from the command line; everything else is ns-2.35's default.
#
# The receiver's heartbeats are off (heartbeatInterval_ 0): a receiving
# CMT agent sees its paths idle and sends HEARTBEATs, whose acknowledgment
# calls SendMuch with a round-robin pointer shared by all CMT agents, and
# ns-2 can loop for ever. `unordered` 1 makes the chunks unordered: the
# 16-bit stream sequence number wraps after 65 536 chunks and ns-2's
# ordered delivery then falls behind (long runs with a large buffer).
#
# Prints one line, "key value" pairs:
#   chunks N      new chunks that reached the receiver in [warmup, duration]
#   frCount N     SACKs that triggered a fast retransmission (whole run)
#   timeoutCount N   expiries of the paths' T3-rtx timers (whole run): the
#                    agent's DataTimeout lines, not its timeoutCount_, which
#                    each Reset (one per path, before any data) raises by one
#                    "for the trace to pick up" (sctp.cc) -- n timeouts too many
# The receiver's rwnd_ trace counter advances once per new chunk accepted
# and once per chunk passed to the application; the chunk count is half its
# advance (ordered delivery lags arrival by at most the receive buffer).
if {$argc < 11} {
    puts stderr "usage: ns cmt.tcl paths rtt_s loss rbuf seed duration_s warmup_s trigger rtx_policy use_pf pf_cwnd \[unordered\]"
    exit 2
}
set paths [lindex $argv 0]
set rtt [lindex $argv 1]
set loss [lindex $argv 2]
set rbuf [lindex $argv 3]
set seed [lindex $argv 4]
set duration [lindex $argv 5]
set warmup [lindex $argv 6]
set trigger [lindex $argv 7]
set rtxPolicy [lindex $argv 8]
set usePf [lindex $argv 9]
set pfCwnd [lindex $argv 10]
set unordered [expr {$argc > 11 ? [lindex $argv 11] : 0}]

source [file join [file dirname [info script]] loss.tcl]
set ns [new Simulator]

set sender [$ns node]
set receiver [$ns node]
set ifs {}
for {set i 0} {$i < $paths} {incr i} {
    set a [$ns node]
    set b [$ns node]
    $ns multihome-add-interface $sender $a
    $ns multihome-add-interface $receiver $b
    $ns duplex-link $a $b 10Mb [expr {$rtt / 2.0}]s DropTail
    # Queues that never drop: the losses are the error model's alone.
    [[$ns link $a $b] queue] set limit_ 1000000
    [[$ns link $b $a] queue] set limit_ 1000000
    # Each path's losses from its own stream.
    data_loss $ns $a $b $loss $seed
    lappend ifs [list $a $b]
}

set snd [new Agent/SCTP/CMT]
$ns multihome-attach-agent $sender $snd
$snd set mtu_ 1500
$snd set dataChunkSize_ 1468
$snd set numOutStreams_ 1
$snd set unordered_ $unordered
$snd set useCmtReordering_ 1
$snd set useCmtCwnd_ 1
$snd set useCmtDelAck_ 1
$snd set fastRtxTrigger_ $trigger
$snd set eCmtRtxPolicy_ $rtxPolicy
$snd set useCmtPF_ $usePf
$snd set cmtPFCwnd_ $pfCwnd

# The sender writes a "DataTimeout" line per T3-rtx expiry (and an "RTX TSN"
# line per resend) to an attached channel; traced variables stay off.
set timeoutLog "ns2-cmt-[pid].log"
set timeoutChannel [open $timeoutLog w]
$snd attach $timeoutChannel

set rcv [new Agent/SCTP/CMT]
$ns multihome-attach-agent $receiver $rcv
$rcv set mtu_ 1500
$rcv set initialRwnd_ $rbuf
$rcv set useDelayedSacks_ 1
$rcv set useCmtDelAck_ 1
$rcv set heartbeatInterval_ 0

$ns connect $snd $rcv
$snd set-primary-destination [lindex [lindex $ifs 0] 1]

set ftp [new Application/FTP]
$ftp attach-agent $snd

set startCount 0
proc mark {} {
    global rcv startCount
    set startCount [$rcv set rwnd_]
}
proc data_timeouts {} {
    global timeoutLog timeoutChannel
    close $timeoutChannel
    set log [open $timeoutLog r]
    set count [regexp -all {DataTimeout} [read $log]]
    close $log
    file delete $timeoutLog
    return $count
}
proc finish {} {
    global rcv snd startCount
    set chunks [expr {([$rcv set rwnd_] - $startCount) / 2}]
    puts "chunks $chunks frCount [$snd set frCount_] timeoutCount [data_timeouts]"
    exit 0
}
$ns at 0.0 "$ftp start"
$ns at $warmup "mark"
$ns at $duration "finish"
$ns run
