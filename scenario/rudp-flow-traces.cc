/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-flow-traces.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpFlowTraces");

RudpFlowTraces::RudpFlowTraces(const std::string& prefix)
    : m_prefix(prefix)
{
    NS_LOG_FUNCTION(this << prefix);
}

bool
RudpFlowTraces::IsEnabled() const
{
    return !m_prefix.empty();
}

std::string
RudpFlowTraces::Add(Callback<Ptr<Socket>> socketOf, Time start)
{
    NS_LOG_FUNCTION(this << start);
    if (!IsEnabled())
    {
        return "";
    }
    Flow flow;
    flow.prefix = m_prefix + "-" + std::to_string(m_flows.size());
    flow.cwnd = Create<RudpCwndTrace>(flow.prefix + "-cwnd.csv");
    if (!flow.cwnd->IsGood())
    {
        return "cannot write '" + flow.prefix + "-cwnd.csv'";
    }
    if (!std::ofstream(flow.prefix + "-rtt.csv")) // OutputStreamWrapper would abort
    {
        return "cannot write '" + flow.prefix + "-rtt.csv'";
    }
    flow.rtt = Create<OutputStreamWrapper>(flow.prefix + "-rtt.csv", std::ios::out);
    *flow.rtt->GetStream() << "time_s,rtt_s\n";
    // The application makes its socket when it starts.
    Simulator::Schedule(start + TimeStep(1) - Simulator::Now(),
                        &RudpFlowTraces::Connect,
                        socketOf,
                        flow.cwnd,
                        flow.rtt);
    m_flows.push_back(flow);
    return "";
}

void
RudpFlowTraces::AddElsewhere()
{
    NS_LOG_FUNCTION(this);
    if (IsEnabled())
    {
        Flow flow;
        flow.prefix = m_prefix + "-" + std::to_string(m_flows.size());
        m_flows.push_back(flow);
    }
}

uint32_t
RudpFlowTraces::GetN() const
{
    return m_flows.size();
}

std::string
RudpFlowTraces::GetCwndFile(uint32_t k) const
{
    return m_flows.at(k).prefix + "-cwnd.csv";
}

std::string
RudpFlowTraces::GetRttFile(uint32_t k) const
{
    return m_flows.at(k).prefix + "-rtt.csv";
}

std::string
RudpFlowTraces::Close()
{
    NS_LOG_FUNCTION(this);
    for (const Flow& flow : m_flows)
    {
        if (!flow.cwnd)
        {
            continue; // another rank's
        }
        if (!flow.cwnd->Close())
        {
            return "cannot write '" + flow.prefix + "-cwnd.csv'";
        }
        if (!flow.rtt->GetStream()->flush())
        {
            return "cannot write '" + flow.prefix + "-rtt.csv'";
        }
    }
    return "";
}

void
RudpFlowTraces::Connect(Callback<Ptr<Socket>> socketOf,
                        Ptr<RudpCwndTrace> cwnd,
                        Ptr<OutputStreamWrapper> rtt)
{
    const Ptr<Socket> socket = socketOf();
    NS_ABORT_MSG_UNLESS(socket, "RudpFlowTraces: the sending application made no socket");
    cwnd->Connect(socket);
    NS_ABORT_MSG_UNLESS(
        socket->TraceConnectWithoutContext("RTT", MakeBoundCallback(&RttChanged, rtt)),
        "RudpFlowTraces: " << socket->GetInstanceTypeId().GetName() << " has no RTT trace");
}

void
RudpFlowTraces::RttChanged(Ptr<OutputStreamWrapper> stream, Time /* oldValue */, Time newValue)
{
    *stream->GetStream() << Simulator::Now().GetSeconds() << ',' << newValue.GetSeconds() << '\n';
}

} // namespace ns3
