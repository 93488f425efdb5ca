# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
#
# Build description for waf-era ns-3 (3.35 and earlier). It lists the same
# sources, headers, tests and examples as CMakeLists.txt and
# examples/CMakeLists.txt; python/tests/test_wscript.py checks that they
# agree. No waf-era ns-3 tree is reachable from our build machines, so this
# file is not built by CI: see README.md.

import os
import re


def configure(conf):
    # SHA-256 of transferred files: OpenSSL's libcrypto if pkg-config finds
    # it, else the module's portable implementation (RudpSha256Portable).
    conf.check_cfg(package='libcrypto', uselib_store='CRYPTO',
                   args=['--cflags', '--libs'], mandatory=False)
    have_openssl = bool(conf.env['LIB_CRYPTO'])  # set by a check that found it
    conf.env['RUDP_HAVE_OPENSSL'] = have_openssl
    conf.report_optional_feature('rudp-openssl', 'rudp SHA-256 from OpenSSL', have_openssl,
                                 'libcrypto not found: the portable SHA-256')


def build(bld):
    module = bld.create_ns3_module('rudp', ['internet', 'applications', 'csma', 'point-to-point', 'traffic-control'])
    if bld.env['RUDP_HAVE_OPENSSL']:
        module.use.append('CRYPTO')
        module.env.append_value('DEFINES', 'RUDP_HAVE_OPENSSL')
    # ns-3's minor version number for model/rudp-compat.h, from ns-3's VERSION
    # file: 35 for ns-3.35. ns-3 left waf after 3.35, so a waf-era ns-3-dev
    # ("3-dev") is 3.35 or older. The test library and the examples include
    # model/rudp-compat.h too: they get the definition through 'use'.
    version = re.match(r'3\.(\d+)', bld.env['VERSION'])
    minor_define = 'RUDP_NS3_MINOR=%s' % (version.group(1) if version else '35')
    module.env.append_value('DEFINES', minor_define)
    module.export_defines = [minor_define]
    module.source = [
        'model/netem-queue-disc.cc',
        'model/rudp-cmt-model-assumptions.cc',
        'model/rudp-cmt-coupling.cc',
        'model/rudp-cmt-addresses.cc',
        'model/rudp-cmt-heartbeat.cc',
        'model/rudp-cmt-path.cc',
        'model/rudp-cmt-path-manager.cc',
        'model/rudp-cmt-receive-engine.cc',
        'model/rudp-cmt-receiver.cc',
        'model/rudp-cmt-scheduler.cc',
        'model/rudp-cmt-send-engine.cc',
        'model/rudp-cmt-sender.cc',
        'model/rudp-cmt-socket.cc',
        'model/rudp-cmt-socket-factory.cc',
        'model/rudp-corruption-error-model.cc',
        'model/rudp-crc32c.cc',
        'model/rudp-cmt-scoreboard.cc',
        'model/rudp-cmt-recovery.cc',
        'model/rudp-deadline.cc',
        'model/rudp-endpoint.cc',
        'model/rudp-file-receiver.cc',
        'model/rudp-file-sender.cc',
        'model/rudp-file-source.cc',
        'model/rudp-forwarding.cc',
        'model/rudp-go-back-n.cc',
        'model/rudp-header.cc',
        'model/rudp-jitter-channel.cc',
        'model/rudp-path-routing.cc',
        'model/rudp-relay.cc',
        'model/rudp-reno.cc',
        'model/rudp-rto-timer.cc',
        'model/rudp-rx-buffer.cc',
        'model/rudp-sender-state.cc',
        'model/rudp-sha256.cc',
        'model/rudp-socket-factory.cc',
        'model/rudp-socket.cc',
        'model/rudp-stop-and-wait.cc',
        'model/rudp-tcp-congestion-adapter.cc',
        'model/rudp-tx-buffer.cc',
        'model/rudp-udp-demux.cc',
        'model/rudp-window-policy.cc',
        'model/tcp-cvtcp.cc',
        'model/tcp-rfc5681-reno.cc',
        'helper/rudp-congestion-names.cc',
        'helper/rudp-distributed.cc',
        'helper/rudp-dumbbell-helper.cc',
        'helper/rudp-flow-metrics.cc',
        'helper/rudp-cmt-helper.cc',
        'helper/rudp-file-transfer-helper.cc',
        'helper/rudp-multipath-bottleneck-helper.cc',
        'helper/rudp-stack-helper.cc',
    ]

    # Scenario plumbing (CMakeLists.txt: scenario_sources): a static library
    # only the programs and the tests link, so that nothing in the module
    # library ends the process. It has the module's version from VERSION
    # (scenario/rudp-version.cc; waf defines it for the library's sources).
    with open(os.path.join(bld.path.abspath(), 'VERSION')) as version_file:
        rudp_version = version_file.read().strip()
    scenario = bld(features='cxx cxxstlib',
                   target='rudp-scenario',
                   name='rudp-scenario',
                   use=['ns3-rudp', 'ns3-flow-monitor', 'ns3-internet'],
                   includes=[bld.bldnode.abspath()],
                   defines=['RUDP_VERSION="%s"' % rudp_version],
                   cxxflags=['-fPIC'])  # linked into the shared test library too
    scenario.source = [
        'scenario/rudp-attribute-check.cc',
        'scenario/rudp-command-line.cc',
        'scenario/rudp-cwnd-trace.cc',
        'scenario/rudp-dumbbell-options.cc',
        'scenario/rudp-cmt-options.cc',
        'scenario/rudp-file-transfer-options.cc',
        'scenario/rudp-flow-stats.cc',
        'scenario/rudp-flow-traces.cc',
        'scenario/rudp-json.cc',
        'scenario/rudp-parameter-check.cc',
        'scenario/rudp-ranks.cc',
        'scenario/rudp-scenario-record.cc',
        'scenario/rudp-text.cc',
        'scenario/rudp-trace-options.cc',
        'scenario/rudp-version.cc',
    ]

    module_test = bld.create_ns3_module_test_library('rudp')
    module_test.use.append('rudp-scenario')
    module_test.source = [
        'test/rudp-attributes-test-suite.cc',
        'test/rudp-buffers-test-suite.cc',
        'test/rudp-cmt-coupling-test-suite.cc',
        'test/rudp-cmt-heartbeat-test-suite.cc',
        'test/rudp-cmt-socket-test-suite.cc',
        'test/rudp-cmt-fidelity-test-suite.cc',
        'test/rudp-cmt-scoreboard-test-suite.cc',
        'test/rudp-cmt-recovery-test-suite.cc',
        'test/rudp-cmt-scenarios-test-suite.cc',
        'test/rudp-cmt-model-test-suite.cc',
        'test/rudp-cmt-remedies-test-suite.cc',
        'test/rudp-cmt-test-suite.cc',
        'test/rudp-cmt-goals-test-suite.cc',
        'test/rudp-jitter-channel-test-suite.cc',
        'test/rudp-cmt-path-manager-test-suite.cc',
        'test/rudp-command-line-test-suite.cc',
        'test/rudp-congestion-test-suite.cc',
        'test/rudp-connection-test-suite.cc',
        'test/rudp-rfc5681-reno-test-suite.cc',
        'test/rudp-cvtcp-test-suite.cc',
        'test/rudp-dumbbell-options-test-suite.cc',
        'test/rudp-dumbbell-test-suite.cc',
        'test/rudp-file-test-suite.cc',
        'test/rudp-header-test-suite.cc',
        'test/rudp-netem-test-suite.cc',
        'test/rudp-policy-test-suite.cc',
        'test/rudp-ranks-test-suite.cc',
        'test/rudp-rto-timer-test-suite.cc',
        'test/rudp-test-network.cc',
        'test/rudp-transfer-test-suite.cc',
        'test/rudp-udp-demux-test-suite.cc',
        'test/rudp-variants-test-suite.cc',
        'test/rudp-window-policy-test-suite.cc',
    ]

    headers = bld(features='ns3header')
    headers.module = 'rudp'
    headers.source = [
        'model/netem-queue-disc.h',
        'model/rudp-cmt-model-assumptions.h',
        'model/rudp-cmt-coupling.h',
        'model/rudp-cmt-addresses.h',
        'model/rudp-cmt-heartbeat.h',
        'model/rudp-cmt-engine-application.h',
        'model/rudp-cmt-path.h',
        'model/rudp-cmt-path-manager.h',
        'model/rudp-cmt-receive-engine.h',
        'model/rudp-cmt-receiver.h',
        'model/rudp-cmt-scheduler.h',
        'model/rudp-cmt-send-engine.h',
        'model/rudp-cmt-sender.h',
        'model/rudp-cmt-socket.h',
        'model/rudp-cmt-socket-factory.h',
        'model/rudp-corruption-error-model.h',
        'model/rudp-crc32c.h',
        'model/rudp-cmt-scoreboard.h',
        'model/rudp-cmt-recovery.h',
        'model/rudp-deadline.h',
        'model/rudp-endpoint.h',
        'model/rudp-file-receiver.h',
        'model/rudp-file-sender.h',
        'model/rudp-file-source.h',
        'model/rudp-forwarding.h',
        'model/rudp-go-back-n.h',
        'model/rudp-header.h',
        'model/rudp-jitter-channel.h',
        'model/rudp-relay.h',
        'model/rudp-reno.h',
        'model/rudp-rto-timer.h',
        'model/rudp-rx-buffer.h',
        'model/rudp-sender-state.h',
        'model/rudp-sha256.h',
        'model/rudp-socket-factory.h',
        'model/rudp-socket.h',
        'model/rudp-stop-and-wait.h',
        'model/rudp-tcp-congestion-adapter.h',
        'model/rudp-tx-buffer.h',
        'model/rudp-udp-demux.h',
        'model/rudp-window-policy.h',
        'model/tcp-cvtcp.h',
        'model/tcp-rfc5681-reno.h',
        'helper/rudp-congestion-names.h',
        'helper/rudp-distributed.h',
        'helper/rudp-dumbbell-helper.h',
        'helper/rudp-flow-metrics.h',
        'helper/rudp-cmt-helper.h',
        'helper/rudp-file-transfer-helper.h',
        'helper/rudp-multipath-bottleneck-helper.h',
        'helper/rudp-stack-helper.h',
        # waf has no public header left out of the module header: the
        # scenario headers are in ns3/rudp-module.h here.
        'scenario/rudp-attribute-check.h',
        'scenario/rudp-command-line.h',
        'scenario/rudp-cwnd-trace.h',
        'scenario/rudp-dumbbell-options.h',
        'scenario/rudp-cmt-options.h',
        'scenario/rudp-file-transfer-options.h',
        'scenario/rudp-flow-stats.h',
        'scenario/rudp-flow-traces.h',
        'scenario/rudp-json.h',
        'scenario/rudp-parameter-check.h',
        'scenario/rudp-ranks.h',
        'scenario/rudp-scenario-record.h',
        'scenario/rudp-text.h',
        'scenario/rudp-trace-options.h',
        'scenario/rudp-version.h',
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
