/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-trace-options.h"

#include "rudp-command-line.h"
#include "rudp-parameter-check.h"

#include "ns3/abort.h"
#include "ns3/flow-monitor.h"
#include "ns3/log.h"

#include <filesystem>
#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpTraceOptions");

RudpTraceOptions::RudpTraceOptions()
{
    NS_LOG_FUNCTION(this);
}

void
RudpTraceOptions::AddOptions(RudpCommandLine& cmd)
{
    NS_LOG_FUNCTION(this);
    cmd.AddValue("pcap",
                 "Write a pcap file of each device's traffic, PREFIX-<node>-<device>.pcap "
                 "(empty: none)",
                 m_pcapPrefix,
                 "a file name prefix in a directory that can be written",
                 &RudpTraceOptions::CheckPcapPrefix);
    cmd.AddValue("flowmon-xml",
                 "Write FlowMonitor's statistics of every flow as XML, with histograms and "
                 "probes, to this file (empty: none)",
                 m_flowMonitorFile,
                 "a file path that can be written",
                 RudpCommandLine::WritableFile());
}

std::string
RudpTraceOptions::GetPcapPrefix() const
{
    return m_pcapPrefix;
}

std::string
RudpTraceOptions::GetFlowMonitorFile() const
{
    return m_flowMonitorFile;
}

void
RudpTraceOptions::EnablePcap(PcapHelperForDevice& helper) const
{
    NS_LOG_FUNCTION(this);
    if (!m_pcapPrefix.empty())
    {
        helper.EnablePcapAll(m_pcapPrefix);
    }
}

void
RudpTraceOptions::EnablePcap(PcapHelperForDevice& helper, NodeContainer nodes) const
{
    NS_LOG_FUNCTION(this);
    if (!m_pcapPrefix.empty())
    {
        helper.EnablePcap(m_pcapPrefix, nodes);
    }
}

void
RudpTraceOptions::InstallFlowMonitor()
{
    NS_LOG_FUNCTION(this);
    if (!m_flowMonitorFile.empty() && !m_monitor)
    {
        m_monitor = m_flowHelper.InstallAll();
    }
}

void
RudpTraceOptions::SetFlowMonitor(Ptr<FlowMonitor> monitor)
{
    NS_LOG_FUNCTION(this << monitor);
    m_monitor = monitor;
}

void
RudpTraceOptions::WriteFlowMonitor() const
{
    NS_LOG_FUNCTION(this);
    if (m_flowMonitorFile.empty())
    {
        return;
    }
    NS_ABORT_MSG_UNLESS(m_monitor,
                        "RudpTraceOptions: --flowmon-xml needs InstallFlowMonitor() or "
                        "SetFlowMonitor() before the simulation");
    m_monitor->SerializeToXmlFile(m_flowMonitorFile, true, true);
    // SerializeToXmlFile reports nothing: a file that did not get written
    // (the disk filled up, the folder went away) is noticed here.
    std::ifstream written(m_flowMonitorFile);
    if (!written || written.peek() == std::ifstream::traits_type::eof())
    {
        RudpParameterCheck::Fail("flowmon-xml", "cannot write '" + m_flowMonitorFile + "'");
    }
}

std::string
RudpTraceOptions::CheckPcapPrefix(const std::string& prefix)
{
    if (prefix.empty())
    {
        return "";
    }
    namespace fs = std::filesystem;
    const fs::path parent = fs::path(prefix).parent_path();
    const fs::path folder = parent.empty() ? fs::path(".") : parent;
    std::error_code error;
    if (!fs::is_directory(folder, error))
    {
        // std::string first: GCC 12 warns of a false overflow in "..." + std::string&&.
        return std::string("'") + folder.string() + "' is not a directory";
    }
    // The files are PREFIX-<node>-<device>.pcap: try to write one beside them.
    const std::string probe = prefix + "-write-check.pcap";
    const bool existed = fs::exists(probe, error);
    if (!std::ofstream(probe, std::ios::app))
    {
        return "cannot write files named '" + prefix + "-...' in '" + folder.string() + "'";
    }
    if (!existed)
    {
        fs::remove(probe, error);
    }
    return "";
}

} // namespace ns3
