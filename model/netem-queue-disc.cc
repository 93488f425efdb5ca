/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "netem-queue-disc.h"

#include "rudp-compat.h"
#include "rudp-corruption-error-model.h"

#include "ns3/abort.h"
#include "ns3/arp-queue-disc-item.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NetemQueueDisc");

namespace
{
/**
 * \return true if \p item is an ICMPv4 message. ns-3 parses ICMP without
 * checking its checksum, so a flipped bit in the IPv4 header an ICMP error
 * quotes makes the parser read past the packet and abort the simulation.
 */
bool
CarriesIcmpv4(Ptr<const QueueDiscItem> item)
{
    Ptr<const Ipv4QueueDiscItem> ip = DynamicCast<const Ipv4QueueDiscItem>(item);
    return ip && ip->GetHeader().GetProtocol() == 1;
}
} // namespace

NS_OBJECT_ENSURE_REGISTERED(NetemTfifo);
NS_OBJECT_ENSURE_REGISTERED(NetemQueueDisc);

// NetemTfifo

TypeId
NetemTfifo::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NetemTfifo")
                            .SetParent<Queue<QueueDiscItem>>()
                            .SetGroupName("Rudp")
                            .AddConstructor<NetemTfifo>();
    return tid;
}

NetemTfifo::NetemTfifo()
    : NS_LOG_TEMPLATE_DEFINE("NetemQueueDisc")
{
    NS_LOG_FUNCTION(this);
}

NetemTfifo::~NetemTfifo()
{
    NS_LOG_FUNCTION(this);
}

NetemTfifo::ConstIterator
NetemTfifo::First() const
{
#if RUDP_HAVE_QUEUE_GET_CONTAINER
    return GetContainer().begin();
#else
    return begin();
#endif
}

NetemTfifo::ConstIterator
NetemTfifo::End() const
{
#if RUDP_HAVE_QUEUE_GET_CONTAINER
    return GetContainer().end();
#else
    return end();
#endif
}

bool
NetemTfifo::Enqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    return EnqueueAt(item, Simulator::Now());
}

bool
NetemTfifo::EnqueueAt(Ptr<QueueDiscItem> item, Time timeToSend)
{
    NS_LOG_FUNCTION(this << item << timeToSend);
    // Walk back from the end past every later item, but never into the
    // items put at once: most items go last, so this is usually one step.
    ConstIterator position = End();
    auto time = m_timeToSend.end();
    size_t index = m_timeToSend.size();
    while (index > m_atOnce && *std::prev(time) > timeToSend)
    {
        --position;
        --time;
        --index;
    }
    if (!DoEnqueue(position, item))
    {
        return false;
    }
    m_timeToSend.insert(time, timeToSend);
    return true;
}

bool
NetemTfifo::EnqueueAtOnce(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    if (!DoEnqueue(First(), item))
    {
        return false;
    }
    m_timeToSend.push_front(Simulator::Now());
    ++m_atOnce;
    return true;
}

void
NetemTfifo::PopFront()
{
    m_timeToSend.pop_front();
    if (m_atOnce > 0)
    {
        --m_atOnce;
    }
}

Ptr<QueueDiscItem>
NetemTfifo::Dequeue()
{
    NS_LOG_FUNCTION(this);
    Ptr<QueueDiscItem> item = DoDequeue(First());
    if (item)
    {
        PopFront();
    }
    return item;
}

Ptr<QueueDiscItem>
NetemTfifo::Remove()
{
    NS_LOG_FUNCTION(this);
    Ptr<QueueDiscItem> item = DoRemove(First());
    if (item)
    {
        PopFront();
    }
    return item;
}

Ptr<const QueueDiscItem>
NetemTfifo::Peek() const
{
    NS_LOG_FUNCTION(this);
    return DoPeek(First());
}

Time
NetemTfifo::GetHeadTimeToSend() const
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(!m_timeToSend.empty(), "the queue is empty");
    return m_timeToSend.front();
}

bool
NetemTfifo::IsHeadAtOnce() const
{
    NS_LOG_FUNCTION(this);
    return m_atOnce > 0;
}

Time
NetemTfifo::GetLastTimeToSend() const
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(!m_timeToSend.empty(), "the queue is empty");
    // The items put at once come first, the latest first; the others follow
    // in order of their time: the latest time is at one end or the other.
    return std::max(m_timeToSend.front(), m_timeToSend.back());
}

void
NetemTfifo::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_timeToSend.clear();
    m_atOnce = 0;
    Queue<QueueDiscItem>::DoDispose();
}

// NetemQueueDisc

TypeId
NetemQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NetemQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("Rudp")
            .AddConstructor<NetemQueueDisc>()
            .AddAttribute(
                "Limit",
                "The most packets held; more are dropped (packets, 1..2^32-1; "
                "netem's limit, 1000 by default as netem's).",
                UintegerValue(1000),
                MakeUintegerAccessor(&NetemQueueDisc::SetLimit, &NetemQueueDisc::GetLimit),
                MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Delay",
                          "Time every packet is held, unless reordered (0..3600 s; netem's "
                          "delay).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&NetemQueueDisc::m_delay),
                          MakeTimeChecker(Seconds(0), Seconds(3600)))
            .AddAttribute("Jitter",
                          "Spread of the delay, see JitterDistribution; a delay below 0 means "
                          "due at once (0..3600 s; netem's delay TIME JITTER).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&NetemQueueDisc::m_jitter),
                          MakeTimeChecker(Seconds(0), Seconds(3600)))
            .AddAttribute("JitterDistribution",
                          "Uniform: the delay is uniform in [Delay - Jitter, Delay + Jitter) "
                          "(netem's default); Normal: Delay + Jitter x N(0,1), cut at 4 Jitter "
                          "either side (netem's distribution normal).",
                          EnumValue(NetemQueueDisc::UNIFORM_JITTER),
                          RUDP_MAKE_ENUM_ACCESSOR(NetemQueueDisc::JitterDistribution,
                                                  &NetemQueueDisc::m_jitterDistribution),
                          MakeEnumChecker(NetemQueueDisc::UNIFORM_JITTER,
                                          "Uniform",
                                          NetemQueueDisc::NORMAL_JITTER,
                                          "Normal"))
            .AddAttribute(
                "LossModel",
                "Random: each packet is lost with probability Loss (netem's loss "
                "random); GilbertElliott: a two-state Markov chain, GeP, GeR, "
                "Ge1MinusH, Ge1MinusK (netem's loss gemodel p r 1-h 1-k).",
                EnumValue(NetemQueueDisc::RANDOM_LOSS),
                RUDP_MAKE_ENUM_ACCESSOR(NetemQueueDisc::LossModel, &NetemQueueDisc::m_lossModel),
                MakeEnumChecker(NetemQueueDisc::RANDOM_LOSS,
                                "Random",
                                NetemQueueDisc::GILBERT_ELLIOTT_LOSS,
                                "GilbertElliott"))
            .AddAttribute("Loss",
                          "Probability that a packet is lost, with LossModel Random "
                          "(0..1; netem's loss random PERCENT).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_loss),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("GeP",
                          "Gilbert-Elliott: probability of a move from the good to the bad "
                          "state, per packet (0..1; netem's gemodel p).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_geP),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("GeR",
                          "Gilbert-Elliott: probability of a move from the bad to the good "
                          "state, per packet; the mean bad run is 1/GeR packets (0..1; "
                          "netem's gemodel r; tc's default is 1 - p, this one's 1).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_geR),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Ge1MinusH",
                          "Gilbert-Elliott: loss probability in the bad state (0..1; "
                          "netem's gemodel 1-h).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_ge1MinusH),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Ge1MinusK",
                          "Gilbert-Elliott: loss probability in the good state (0..1; "
                          "netem's gemodel 1-k).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_ge1MinusK),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Duplicate",
                          "Probability that a packet is sent twice; the copy goes through the "
                          "queue disc again, once (0..1; netem's duplicate).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_duplicate),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Reorder",
                          "Probability that a packet, once ReorderGap - 1 packets were delayed "
                          "since the last such, is sent at once, ahead of the delayed ones; "
                          "needs Delay > 0 (0..1; netem's reorder).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_reorder),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("ReorderGap",
                          "Packets delayed, at least, between two reordered ones, plus one "
                          "(packets, 1..2^32-1; netem's reorder ... gap DISTANCE, 1 when "
                          "absent).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NetemQueueDisc::m_reorderGap),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Corrupt",
                          "Probability that a packet has CorruptBits bits flipped (0..1; "
                          "netem's corrupt).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_corrupt),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("CorruptBits",
                          "Distinct bits flipped in a corrupted packet, anywhere in the packet "
                          "the queue disc holds: for IP, the IP payload; ICMPv4 messages are "
                          "never corrupted (bits, 1..64; netem flips one).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NetemQueueDisc::m_corruptBits),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("Rate",
                          "Serialisation rate: each packet's time to send is at least its size "
                          "(the IP datagram, header included) at this rate after the previous "
                          "one's; 0 bit/s for none (bit/s; netem's rate).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&NetemQueueDisc::m_rate),
                          MakeDataRateChecker())
            .AddTraceSource("Duplicate",
                            "A copy of a packet was made and is about to be enqueued",
                            MakeTraceSourceAccessor(&NetemQueueDisc::m_duplicateTrace),
                            "ns3::QueueDiscItem::TracedCallback")
            .AddTraceSource("Reorder",
                            "A packet was put first, to be sent at once",
                            MakeTraceSourceAccessor(&NetemQueueDisc::m_reorderTrace),
                            "ns3::QueueDiscItem::TracedCallback")
            .AddTraceSource("Corrupt",
                            "A packet had bits flipped: the item and how many bits",
                            MakeTraceSourceAccessor(&NetemQueueDisc::m_corruptTrace),
                            "ns3::NetemQueueDisc::CorruptTracedCallback");
    return tid;
}

NetemQueueDisc::NetemQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::SINGLE_INTERNAL_QUEUE, QueueSizeUnit::PACKETS),
      m_delay(Seconds(0)),
      m_jitter(Seconds(0)),
      m_jitterDistribution(UNIFORM_JITTER),
      m_lossModel(RANDOM_LOSS),
      m_loss(0),
      m_geP(0),
      m_geR(1),
      m_ge1MinusH(1),
      m_ge1MinusK(0),
      m_duplicate(0),
      m_reorder(0),
      m_reorderGap(1),
      m_corrupt(0),
      m_corruptBits(1),
      m_rate(0),
      m_limit(1000),
      m_lossRandom(CreateObject<UniformRandomVariable>()),
      m_duplicateRandom(CreateObject<UniformRandomVariable>()),
      m_corruptRandom(CreateObject<UniformRandomVariable>()),
      m_bitRandom(CreateObject<UniformRandomVariable>()),
      m_reorderRandom(CreateObject<UniformRandomVariable>()),
      m_uniformJitter(CreateObject<UniformRandomVariable>()),
      m_normalJitter(CreateObject<NormalRandomVariable>())
{
    NS_LOG_FUNCTION(this);
    // A standard normal cut at 4: netem's normal table, 16-bit values
    // scaled by 8192, cannot go beyond 4 standard deviations either.
    m_normalJitter->SetAttribute("Mean", DoubleValue(0.0));
    m_normalJitter->SetAttribute("Variance", DoubleValue(1.0));
    m_normalJitter->SetAttribute("Bound", DoubleValue(4.0));
}

NetemQueueDisc::~NetemQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

int64_t
NetemQueueDisc::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_lossRandom->SetStream(stream);
    m_duplicateRandom->SetStream(stream + 1);
    m_corruptRandom->SetStream(stream + 2);
    m_bitRandom->SetStream(stream + 3);
    m_reorderRandom->SetStream(stream + 4);
    m_uniformJitter->SetStream(stream + 5);
    m_normalJitter->SetStream(stream + 6);
    return 7;
}

const NetemQueueDisc::Counts&
NetemQueueDisc::GetCounts() const
{
    NS_LOG_FUNCTION(this);
    return m_counts;
}

void
NetemQueueDisc::SetLimit(uint32_t limit)
{
    NS_LOG_FUNCTION(this << limit);
    m_limit = limit;
    if (m_tfifo)
    {
        // DoEnqueue checks the limit itself (and says why it drops); the
        // internal queue's size only mirrors it, and may not shrink below
        // what it holds.
        m_tfifo->SetMaxSize(
            QueueSize(QueueSizeUnit::PACKETS, std::max(limit, m_tfifo->GetNPackets())));
    }
}

uint32_t
NetemQueueDisc::GetLimit() const
{
    NS_LOG_FUNCTION(this);
    return m_limit;
}

bool
NetemQueueDisc::LossEvent()
{
    NS_LOG_FUNCTION(this);
    switch (m_lossModel)
    {
    case RANDOM_LOSS:
        return m_loss > 0 && m_lossRandom->GetValue() < m_loss;
    case GILBERT_ELLIOTT_LOSS: {
        // As netem: the state the packet finds decides its loss probability;
        // a first draw moves the chain, a second decides the loss.
        const bool bad = m_geBad;
        if (m_lossRandom->GetValue() < (bad ? m_geR : m_geP))
        {
            m_geBad = !bad;
        }
        return m_lossRandom->GetValue() < (bad ? m_ge1MinusH : m_ge1MinusK);
    }
    }
    return false;
}

Time
NetemQueueDisc::DrawDelay()
{
    NS_LOG_FUNCTION(this);
    if (m_jitter.IsZero())
    {
        return m_delay;
    }
    const int64_t sigma = m_jitter.GetTimeStep();
    int64_t offset = 0;
    if (m_jitterDistribution == UNIFORM_JITTER)
    {
        // An integer number of time steps in [-sigma, sigma), as netem's
        // (rnd % 2 sigma) - sigma in nanoseconds.
        const double u = m_uniformJitter->GetValue();
        offset = std::min(static_cast<int64_t>(std::floor(u * 2.0 * sigma)), 2 * sigma - 1) - sigma;
    }
    else
    {
        offset = std::llround(m_normalJitter->GetValue() * static_cast<double>(sigma));
    }
    return m_delay + Time(static_cast<long long int>(offset));
}

Ptr<QueueDiscItem>
NetemQueueDisc::CopyItem(Ptr<const QueueDiscItem> item)
{
    NS_LOG_FUNCTION(item);
    Ptr<Packet> packet = item->GetPacket()->Copy();
    Ptr<QueueDiscItem> copy;
    if (Ptr<const Ipv4QueueDiscItem> ipv4 = DynamicCast<const Ipv4QueueDiscItem>(item))
    {
        copy = Create<Ipv4QueueDiscItem>(packet,
                                         ipv4->GetAddress(),
                                         ipv4->GetProtocol(),
                                         ipv4->GetHeader());
    }
    else if (Ptr<const Ipv6QueueDiscItem> ipv6 = DynamicCast<const Ipv6QueueDiscItem>(item))
    {
        copy = Create<Ipv6QueueDiscItem>(packet,
                                         ipv6->GetAddress(),
                                         ipv6->GetProtocol(),
                                         ipv6->GetHeader());
    }
    else if (Ptr<const ArpQueueDiscItem> arp = DynamicCast<const ArpQueueDiscItem>(item))
    {
        copy = Create<ArpQueueDiscItem>(packet,
                                        arp->GetAddress(),
                                        arp->GetProtocol(),
                                        arp->GetHeader());
    }
    else
    {
        return nullptr; // a kind of item this queue disc cannot copy
    }
    copy->SetTxQueueIndex(item->GetTxQueueIndex());
    return copy;
}

bool
NetemQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    const bool isCopy = m_enqueuingCopy;
    m_enqueuingCopy = false;

    // netem's order: duplicate?, lost?, corrupt?, limit, then the time to send.
    uint32_t count = 1;
    if (m_duplicate > 0 && !isCopy && m_duplicateRandom->GetValue() < m_duplicate)
    {
        ++count; // a copy is never copied again
    }
    if (LossEvent())
    {
        --count; // with a duplicate, one of the two goes on
    }
    if (count == 0)
    {
        NS_LOG_LOGIC("lost " << item);
        ++m_counts.lost;
        DropBeforeEnqueue(item, LOSS_DROP);
        return false;
    }
    Ptr<QueueDiscItem> copy;
    if (count > 1)
    {
        copy = CopyItem(item); // before the original may be corrupted
        if (!copy)
        {
            NS_LOG_WARN("cannot copy " << item << ": not duplicated");
        }
    }

    if (m_corrupt > 0 && m_corruptRandom->GetValue() < m_corrupt && !CarriesIcmpv4(item))
    {
        Ptr<Packet> packet = item->GetPacket();
        const std::vector<uint32_t> bits =
            RudpCorruptionErrorModel::FlipRandomBits(packet,
                                                     0,
                                                     uint64_t{packet->GetSize()} * 8,
                                                     m_corruptBits,
                                                     m_bitRandom);
        if (!bits.empty())
        {
            NS_LOG_LOGIC("flipped " << bits.size() << " bits of " << item);
            ++m_counts.corrupted;
            m_counts.bitsFlipped += bits.size();
            m_corruptTrace(item, bits.size());
        }
    }

    if (GetNPackets() >= m_limit)
    {
        NS_LOG_LOGIC("limit of " << m_limit << " packets reached, dropping " << item);
        ++m_counts.limitDropped;
        DropBeforeEnqueue(item, LIMIT_DROP);
        return false; // and the copy, never enqueued, goes too
    }

    const Time now = Simulator::Now();
    bool enqueued = false;
    if (m_reorder > 0 && m_counter >= m_reorderGap - 1 && m_reorderRandom->GetValue() < m_reorder)
    {
        // Sent at once, ahead of every packet held: the delayed ones are
        // overtaken.
        m_counter = 0;
        enqueued = m_tfifo->EnqueueAtOnce(item);
        if (enqueued)
        {
            NS_LOG_LOGIC("reordered " << item);
            ++m_counts.reordered;
            m_reorderTrace(item);
        }
    }
    else
    {
        const Time delay = DrawDelay();
        Time timeToSend = now + delay;
        if (m_rate.GetBitRate() > 0)
        {
            // As netem: counted from the last packet held, if any, and then
            // serialised at Rate.
            if (!m_tfifo->IsEmpty())
            {
                timeToSend = std::max(timeToSend, m_tfifo->GetLastTimeToSend());
            }
            timeToSend += m_rate.CalculateBytesTxTime(item->GetSize());
        }
        m_counter += m_counter < std::numeric_limits<uint32_t>::max() ? 1 : 0;
        NS_LOG_LOGIC("delay " << delay.As(Time::MS) << ", due at " << timeToSend.As(Time::S));
        enqueued = m_tfifo->EnqueueAt(item, timeToSend);
    }

    if (copy)
    {
        ++m_counts.duplicated;
        m_duplicateTrace(copy);
        // Through the whole queue disc again, after the original (netem
        // enqueues it at the root, before): QueueDisc::Enqueue counts it
        // as received, and a received packet must be enqueued or dropped
        // before the next is received.
        m_enqueuingCopy = true;
        Enqueue(copy);
    }
    return enqueued;
}

void
NetemQueueDisc::WakeAt(Time when)
{
    NS_LOG_FUNCTION(this << when);
    if (!m_wake.IsExpired() && Simulator::Now() + Simulator::GetDelayLeft(m_wake) <= when)
    {
        return;
    }
    Simulator::Cancel(m_wake);
    NS_LOG_LOGIC("run at " << when.As(Time::S));
    m_wake = Simulator::Schedule(when - Simulator::Now(), &QueueDisc::Run, this);
}

Ptr<QueueDiscItem>
NetemQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    if (m_tfifo->IsEmpty())
    {
        return nullptr;
    }
    if (!m_tfifo->IsHeadAtOnce())
    {
        const Time due = m_tfifo->GetHeadTimeToSend();
        if (due > Simulator::Now())
        {
            WakeAt(due);
            return nullptr;
        }
    }
    return m_tfifo->Dequeue();
}

bool
NetemQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    if (GetNQueueDiscClasses() > 0)
    {
        NS_LOG_ERROR("NetemQueueDisc cannot have classes");
        return false;
    }
    if (GetNPacketFilters() > 0)
    {
        NS_LOG_ERROR("NetemQueueDisc cannot have packet filters");
        return false;
    }
    if (GetNInternalQueues() > 0)
    {
        NS_LOG_ERROR("NetemQueueDisc makes its own internal queue");
        return false;
    }
    // tc refuses it too: "reordering not possible without specifying some delay".
    NS_ABORT_MSG_IF(m_reorder > 0 && !m_delay.IsStrictlyPositive(),
                    "NetemQueueDisc: Reorder > 0 needs Delay > 0 (reordered packets skip the "
                    "delay; without one there is nothing to overtake)");
    m_tfifo = CreateObject<NetemTfifo>();
    m_tfifo->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, m_limit));
    AddInternalQueue(m_tfifo);
    return true;
}

void
NetemQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    m_geBad = false;
    m_counter = 0;
}

void
NetemQueueDisc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Simulator::Cancel(m_wake);
    m_tfifo = nullptr;
    m_lossRandom = nullptr;
    m_duplicateRandom = nullptr;
    m_corruptRandom = nullptr;
    m_bitRandom = nullptr;
    m_reorderRandom = nullptr;
    m_uniformJitter = nullptr;
    m_normalJitter = nullptr;
    QueueDisc::DoDispose();
}

} // namespace ns3
