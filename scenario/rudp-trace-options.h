/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_TRACE_OPTIONS_H
#define RUDP_TRACE_OPTIONS_H

#include "ns3/flow-monitor-helper.h"
#include "ns3/node-container.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{

class RudpCommandLine;

/**
 * \ingroup rudp-helpers
 * \brief The tracing options every scenario program offers, and what they do.
 *
 * - --pcap=PREFIX: a pcap file of each device's traffic,
 *   PREFIX-<node>-<device>.pcap, by ns-3's own trace helpers
 *   (PcapHelperForDevice::EnablePcapAll, as ns-3's examples do);
 * - --flowmon-xml=FILE: FlowMonitor's statistics of every flow as XML, with
 *   the delay, jitter and size histograms and the per-probe statistics
 *   (FlowMonitor::SerializeToXmlFile). A program that runs a FlowMonitor of
 *   its own hands it over; the others get one, installed on every node, only
 *   with this option, so that a run without it is exactly what it was.
 *
 * Both are checked before anything is simulated: the file can be written, the
 * prefix's directory exists and can be written. Neither changes what is
 * simulated (no random number is drawn, no packet altered).
 *
 * \code
 *   RudpTraceOptions tracing;
 *   tracing.AddOptions(cmd);
 *   cmd.Parse(argc, argv);
 *   ... devices installed with a CsmaHelper csma ...
 *   tracing.EnablePcap(csma);
 *   tracing.InstallFlowMonitor(); // or SetFlowMonitor(ownMonitor)
 *   Simulator::Run();
 *   tracing.WriteFlowMonitor();   // before Simulator::Destroy
 * \endcode
 */
class RudpTraceOptions
{
  public:
    RudpTraceOptions();
    RudpTraceOptions(const RudpTraceOptions&) = delete;
    RudpTraceOptions& operator=(const RudpTraceOptions&) = delete;

    /**
     * \brief Registers --pcap and --flowmon-xml.
     * \param cmd the program's command line, before Parse()
     */
    void AddOptions(RudpCommandLine& cmd);

    /// \return the --pcap prefix ("" when not asked for)
    std::string GetPcapPrefix() const;
    /// \return the --flowmon-xml file ("" when not asked for)
    std::string GetFlowMonitorFile() const;

    /**
     * \brief With --pcap, writes a pcap file of every device \p helper's kind
     * of device (every CsmaNetDevice for a CsmaHelper, every
     * PointToPointNetDevice for a PointToPointHelper); call it once the
     * devices exist. Without --pcap it does nothing.
     * \param helper a device helper
     */
    void EnablePcap(PcapHelperForDevice& helper) const;
    /**
     * \brief EnablePcap() for the devices of \p nodes only: in a simulation
     * split across MPI ranks, the nodes this rank simulates, so that each
     * file has one writer. The same files as EnablePcap() for every node.
     * \param helper a device helper
     * \param nodes the nodes whose devices are traced
     */
    void EnablePcap(PcapHelperForDevice& helper, NodeContainer nodes) const;

    /**
     * \brief With --flowmon-xml and no monitor handed over, installs a
     * FlowMonitor on every node (FlowMonitorHelper::InstallAll); call it once
     * the nodes have their Internet stacks. Without --flowmon-xml it does
     * nothing.
     */
    void InstallFlowMonitor();

    /**
     * \brief The program's own FlowMonitor, which --flowmon-xml writes.
     * \param monitor a monitor installed by the program
     */
    void SetFlowMonitor(Ptr<FlowMonitor> monitor);

    /**
     * \brief With --flowmon-xml, writes the monitor's XML; call it after
     * Simulator::Run and before Simulator::Destroy. A file that cannot be
     * written ends the program (RudpParameterCheck::Fail, exit status 2).
     */
    void WriteFlowMonitor() const;

    /**
     * \brief Checks a --pcap prefix: "" (none), or a prefix whose directory
     * (the current one if it names none) exists and can be written.
     * \param prefix the prefix
     * \return "" if valid, else the problem
     */
    static std::string CheckPcapPrefix(const std::string& prefix);

  private:
    std::string m_pcapPrefix;       ///< --pcap
    std::string m_flowMonitorFile;  ///< --flowmon-xml
    FlowMonitorHelper m_flowHelper; ///< installs the monitor when the program has none
    Ptr<FlowMonitor> m_monitor;     ///< the monitor to write
};

} // namespace ns3

#endif /* RUDP_TRACE_OPTIONS_H */
