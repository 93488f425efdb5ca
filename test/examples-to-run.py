#! /usr/bin/env python3
# A list of C++ examples to run in order to ensure that they remain
# buildable and runnable over time. Each tuple in the list contains
#
#     (example_name, do_run, do_valgrind_run).
#
# ns-3's test.py runs them in-tree; the standalone build registers the same
# list with CTest; scripts/check-ns3-tree.sh runs them under ./ns3 run.
cpp_examples = [
    ("rudp-cc-comparison --rate=10Mbps --flows=cubic@50ms --duration=5", "True", "False"),
    ("rudp-cc-comparison --rate=10Mbps --queue=pfifo --loss=0.001 --flows=cvtcp@50ms,newreno@100ms+1s --duration=5", "True", "False"),
    ("rudp-cc-comparison --rate=10Mbps --flows=westwood@50ms,veno@50ms,htcp@50ms,hybla@200ms --duration=5", "True", "False"),
    ("rudp-cc-comparison --transport=rudp --rate=10Mbps --flows=newreno@50ms --duration=5", "True", "False"),
    ("rudp-file-transfer --variant=stop-and-wait --size=20000", "True", "False"),
    ("rudp-file-transfer --variant=go-back-n --window=10 --loss=0.05 --file=helloworld.txt", "True", "False"),
    ("rudp-file-transfer --variant=reno --delay=5ms --size=200000 --sack=1", "True", "False"),
    ("rudp-file-transfer --variant=reno --corruption=0.05 --rto-mode=adaptive --size=100000", "True", "False"),
    ("rudp-file-transfer --variant=go-back-n --router=sleeping --delay=20ms --size=100000", "True", "False"),
    ("rudp-file-transfer --variant=reno --router=delay --delay=20ms --loss=0.05 --size=200000", "True", "False"),
    ("rudp-file-transfer --variant=reno --sack=1 --delay=5ms --reorder=0.05 --duplicate=0.05 --jitter=2ms --ack-loss=0.05 --size=200000", "True", "False"),
    ("rudp-file-transfer --variant=go-back-n --corruption=0.02 --corruption-bits=3 --blackout-start=110ms --blackout-duration=1s --size=300000", "True", "False"),
    ("rudp-file-transfer --variant=go-back-n --window=5 --link=p2p --mtu=65535 --mss=14750 --rate=24Mbps --router=sleeping --delay=20ms --ns3::RudpRelay::ReceiveBuffer=65536 --size=300000", "True", "False"),
    ("rudp-tcp-vs-udp --transport=udp --packets=100", "True", "False"),
    ("rudp-tcp-vs-udp --transport=tcp --packets=1000", "True", "False"),
    ("rudp-tcp-vs-udp --transport=rudp-reno --packets=1000", "True", "False"),
    ("rudp-transport-cost --transport=rudp-reno --bytes=1000000", "True", "False"),
    ("rudp-udp-floor --paths=2 --duration=10s --data=700,600 --acks=350", "True", "False"),
    ("rudp-many-flows --transport=rudp --flows=200 --flow-bytes=10000", "True", "False"),
    ("rudp-many-flows --transport=rudp-cmt --flows=50 --flow-bytes=10000", "True", "False"),
    ("rudp-coupling --coupling=olia --queue=fifo --duration=20 --warmup=5", "True", "False"),
    ("rudp-test-files --dir=rudp-test-files", "True", "False"),
    ("rudp-netem-correlation --loss=0.05 --correlation=0,0.5 --packets=20000", "True", "False"),
    ("rudp-distributed --transport=rudp --flows=newreno@40ms,cubic@60ms --rate=10Mbps --loss=0.01 --bytes=200000 --duration=20", "True", "False"),
    ("rudp-cmt --paths=2 --rtt=50ms,200ms --rbuf=16384 --duration=20s --warmup=2s", "True", "False"),
    ("rudp-multipath --bytes=2000000 --coupling=lia", "True", "False"),
    ("rudp-cmt --paths=3 --rbuf=16384 --ns2-defaults --duration=20s --warmup=2s", "True", "False"),
    ("rudp-cmt --paths=3 --rtt=100ms --loss=0.05 --rbuf=16384 --duration=20s --warmup=2s --model-assumptions=1", "True", "False"),
    ("rudp-cmt --paths=3 --rtt=50ms,200ms,100ms --rbuf=16384 --duration=20s --warmup=2s --scheduler=buffer-aware --buffer-splitting=both --rescheduling=1", "True", "False"),
    ("rudp-cmt --paths=2 --rtt=20ms,400ms --rbuf=65536 --duration=20s --warmup=2s --scheduler=blest", "True", "False"),
    ("rudp-multipath --bytes=2000000 --scheduler=blest", "True", "False"),
    # Built where wifi and mobility are (the wheel; an ns-3 tree that enables
    # them: check-ns3-tree.sh with RUDP_NS3_MODULES); test.py runs the
    # examples that were built.
    ("rudp-phone --duration=4s --walk-out=1s --walk-back=2s --distance=20 --speed=20", "True", "False"),
    ("rudp-phone --cellular=lte --duration=3s --walk-out=1s --walk-back=2s --distance=20 --speed=20", "'ns3-lte' in NS3_ENABLED_MODULES", "False"),
]

# A list of Python examples to run in order to ensure that they remain
# runnable over time. Each tuple in the list contains
#
#     (example_name, do_run).
#
# test.py runs them in-tree when ns-3 is configured with
# --enable-python-bindings; the standalone build runs them through pytest
# (python/tests/test_python_scenario.py), not CTest.
python_examples = [
    ("rudp-python-scenario.py", "True"),
    ("rudp-multipath.py --bytes=1000000 --coupling=olia", "True"),
]
