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
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
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

/**
 * A datagram whose network header is in its packet already: what Linux's
 * corruption leaves (the corrupted bytes must reach the wire as they are,
 * not be serialised again from a header object, which would write the
 * checksum anew).
 */
class NetemDatagramItem : public QueueDiscItem
{
  public:
    /**
     * \param p the datagram, header included
     * \param addr the destination MAC address
     * \param protocol the L3 protocol number
     */
    NetemDatagramItem(Ptr<Packet> p, const Address& addr, uint16_t protocol)
        : QueueDiscItem(p, addr, protocol)
    {
    }

    void AddHeader() override
    {
        // The header is in the packet already.
    }

    bool Mark() override
    {
        return false;
    }
};

/**
 * GeR's checker: a probability, or GE_R_ONE_MINUS_P (-1) for 1 - GeP.
 */
class GeRChecker : public AttributeChecker
{
  public:
    bool Check(const AttributeValue& value) const override
    {
        const auto* v = dynamic_cast<const DoubleValue*>(&value);
        if (v == nullptr)
        {
            return false;
        }
        const double r = v->Get();
        return r == NetemQueueDisc::GE_R_ONE_MINUS_P || (r >= 0.0 && r <= 1.0);
    }

    std::string GetValueTypeName() const override
    {
        return "ns3::DoubleValue";
    }

    bool HasUnderlyingTypeInformation() const override
    {
        return true;
    }

    std::string GetUnderlyingTypeInformation() const override
    {
        return "double -1 (for 1 - GeP) or 0:1";
    }

    Ptr<AttributeValue> Create() const override
    {
        return ns3::Create<DoubleValue>();
    }

    bool Copy(const AttributeValue& source, AttributeValue& destination) const override
    {
        const auto* src = dynamic_cast<const DoubleValue*>(&source);
        auto* dst = dynamic_cast<DoubleValue*>(&destination);
        if (src == nullptr || dst == nullptr)
        {
            return false;
        }
        *dst = *src;
        return true;
    }
};

/// The number of entries of iproute2's normal distribution table (normal.dist).
constexpr uint32_t NORMAL_TABLE_SIZE = 4096;
/// netem's NETEM_DIST_SCALE: the table's values are standard deviations x 8192.
constexpr int64_t NETEM_DIST_SCALE = 8192;

/**
 * The standard normal quantile at \p q in (0, 1), by bisection of the
 * distribution function (used only to build the table below, once).
 */
double
NormalQuantile(double q)
{
    double low = -10.0;
    double high = 10.0;
    for (int i = 0; i < 100; ++i)
    {
        const double mid = 0.5 * (low + high);
        if (0.5 * std::erfc(-mid / std::sqrt(2.0)) < q)
        {
            low = mid;
        }
        else
        {
            high = mid;
        }
    }
    return 0.5 * (low + high);
}

/**
 * A normal table as iproute2's netem/normal.c makes one: entry j is the
 * largest x on its 0.00005 grid with rint(16384 Phi(x)) = 4 j, i.e. about
 * Phi^-1((j + 1/8) / 4096), scaled by 8192 and cut to 16 bits.
 */
const std::array<int16_t, NORMAL_TABLE_SIZE>&
NormalTable()
{
    static const std::array<int16_t, NORMAL_TABLE_SIZE> table = [] {
        std::array<int16_t, NORMAL_TABLE_SIZE> t{};
        for (uint32_t j = 0; j < NORMAL_TABLE_SIZE; ++j)
        {
            const double x = NormalQuantile((j + 0.125) / NORMAL_TABLE_SIZE);
            const double scaled = std::rint(x * NETEM_DIST_SCALE);
            t[j] = static_cast<int16_t>(std::clamp(scaled, -32768.0, 32767.0));
        }
        return t;
    }();
    return table;
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
                          "state, per packet; the mean bad run is 1/GeR packets; -1 (the "
                          "default) for 1 - GeP, as tc sets r when only p is given, so that "
                          "the loss rate is GeP (0..1, or -1; netem's gemodel r).",
                          DoubleValue(GE_R_ONE_MINUS_P),
                          MakeDoubleAccessor(&NetemQueueDisc::m_geR),
                          Ptr<const AttributeChecker>(ns3::Create<GeRChecker>()))
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
                          "With CorruptMode PayloadBits: distinct bits flipped in a corrupted "
                          "packet, anywhere in the packet the queue disc holds: for IP, the IP "
                          "payload; ICMPv4 messages are never corrupted (bits, 1..64; netem "
                          "flips one).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NetemQueueDisc::m_corruptBits),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute(
                "CorruptMode",
                "PayloadBits: CorruptBits bits of the IP payload, checksums as they "
                "were, so that a transport's own checksum has errors to find (ns-3 "
                "computes no UDP checksum by default); Linux: as Linux's netem, exactly "
                "one bit anywhere in the IPv4 datagram, its header included, after the "
                "checksums were computed, so that the receiver's IPv4 or UDP/TCP checksum "
                "drops it; needs the global ChecksumEnabled (aborts otherwise). ICMPv4 "
                "messages are never corrupted.",
                EnumValue(NetemQueueDisc::CORRUPT_PAYLOAD_BITS),
                RUDP_MAKE_ENUM_ACCESSOR(NetemQueueDisc::CorruptMode,
                                        &NetemQueueDisc::m_corruptMode),
                MakeEnumChecker(NetemQueueDisc::CORRUPT_PAYLOAD_BITS,
                                "PayloadBits",
                                NetemQueueDisc::CORRUPT_LINUX,
                                "Linux"))
            .AddAttribute("DelayCorrelation",
                          "Correlation of each jitter draw with the previous one, as netem's "
                          "get_crandom blends them, with netem's integer arithmetic; 0 for "
                          "independent draws (0..1; netem's delay TIME JITTER CORRELATION).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_delayCorrelation),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("LossCorrelation",
                          "Correlation of each random-loss draw with the previous one "
                          "(netem's get_crandom); the loss rate is then below Loss, see "
                          "doc/netem.rst (0..1; netem's loss random PERCENT CORRELATION).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_lossCorrelation),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("DuplicateCorrelation",
                          "Correlation of each duplication draw with the previous one "
                          "(netem's get_crandom) (0..1; netem's duplicate PERCENT "
                          "CORRELATION).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_duplicateCorrelation),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("ReorderCorrelation",
                          "Correlation of each reorder draw with the previous one (netem's "
                          "get_crandom) (0..1; netem's reorder PERCENT CORRELATION).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_reorderCorrelation),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("CorruptCorrelation",
                          "Correlation of each corruption draw with the previous one (netem's "
                          "get_crandom) (0..1; netem's corrupt PERCENT CORRELATION).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_corruptCorrelation),
                          MakeDoubleChecker<double>(0.0, 1.0))
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
      m_geR(GE_R_ONE_MINUS_P),
      m_ge1MinusH(1),
      m_ge1MinusK(0),
      m_duplicate(0),
      m_reorder(0),
      m_reorderGap(1),
      m_corrupt(0),
      m_corruptBits(1),
      m_corruptMode(CORRUPT_PAYLOAD_BITS),
      m_delayCorrelation(0),
      m_lossCorrelation(0),
      m_duplicateCorrelation(0),
      m_reorderCorrelation(0),
      m_corruptCorrelation(0),
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

uint32_t
NetemQueueDisc::DrawCorrelated(Ptr<UniformRandomVariable> random,
                               double correlation,
                               Correlated& state)
{
    constexpr uint32_t MAX32 = std::numeric_limits<uint32_t>::max();
    if (!state.started)
    {
        state.last = random->GetInteger(0, MAX32); // netem's init_crandom
        state.started = true;
    }
    const uint64_t value = random->GetInteger(0, MAX32);
    // tc scales a percentage to 32 bits with rint(x * UINT32_MAX); netem adds one.
    const uint64_t rho = static_cast<uint64_t>(std::rint(correlation * MAX32)) + 1;
    // value (2^32 - rho) + last rho < 2^64: the sum of two weights of 2^32.
    const uint64_t blended = value * ((uint64_t{1} << 32) - rho) + uint64_t{state.last} * rho;
    state.last = static_cast<uint32_t>(blended >> 32);
    return state.last;
}

bool
NetemQueueDisc::Happens(double p,
                        Ptr<UniformRandomVariable> random,
                        double correlation,
                        Correlated& state)
{
    if (correlation <= 0)
    {
        return random->GetValue() < p;
    }
    // netem: "probability >= get_crandom()", both in 32 bits.
    const double scaled = std::rint(p * std::numeric_limits<uint32_t>::max());
    return DrawCorrelated(random, correlation, state) <= scaled;
}

double
NetemQueueDisc::EffectiveGeR() const
{
    return m_geR == GE_R_ONE_MINUS_P ? 1.0 - m_geP : m_geR;
}

bool
NetemQueueDisc::LossEvent()
{
    NS_LOG_FUNCTION(this);
    switch (m_lossModel)
    {
    case RANDOM_LOSS:
        return m_loss > 0 && Happens(m_loss, m_lossRandom, m_lossCorrelation, m_lossState);
    case GILBERT_ELLIOTT_LOSS: {
        // As netem: the state the packet finds decides its loss probability;
        // a first draw moves the chain, a second decides the loss. netem's
        // Gilbert-Elliott draws are never correlated.
        const bool bad = m_geBad;
        if (m_lossRandom->GetValue() < (bad ? EffectiveGeR() : m_geP))
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
    if (m_delayCorrelation > 0)
    {
        // netem's tabledist on get_crandom, in integer nanoseconds: the
        // modulo keeps little of the correlation unless it is close to 1.
        const uint32_t rnd = DrawCorrelated(m_uniformJitter, m_delayCorrelation, m_delayState);
        const int64_t sigmaNs = std::max<int64_t>(m_jitter.GetNanoSeconds(), 1);
        int64_t offsetNs = 0;
        if (m_jitterDistribution == UNIFORM_JITTER)
        {
            offsetNs = static_cast<int64_t>(rnd % (2 * static_cast<uint64_t>(sigmaNs))) - sigmaNs;
        }
        else
        {
            const int64_t t = NormalTable()[rnd % NORMAL_TABLE_SIZE];
            offsetNs = std::llround(static_cast<double>(sigmaNs) * t / NETEM_DIST_SCALE);
        }
        return m_delay + NanoSeconds(offsetNs);
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
    if (m_duplicate > 0 && !isCopy &&
        Happens(m_duplicate, m_duplicateRandom, m_duplicateCorrelation, m_duplicateState))
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

    if (m_corrupt > 0 &&
        Happens(m_corrupt, m_corruptRandom, m_corruptCorrelation, m_corruptState) &&
        !CarriesIcmpv4(item))
    {
        if (m_corruptMode == CORRUPT_LINUX)
        {
            item = CorruptLikeLinux(item);
        }
        else
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
    if (m_reorder > 0 && m_counter >= m_reorderGap - 1 &&
        Happens(m_reorder, m_reorderRandom, m_reorderCorrelation, m_reorderState))
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

Ptr<QueueDiscItem>
NetemQueueDisc::CorruptLikeLinux(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    NS_ABORT_MSG_UNLESS(Node::ChecksumEnabled(),
                        "NetemQueueDisc: CorruptMode Linux needs the checksums Linux computes "
                        "before netem corrupts: set the global value ChecksumEnabled to true "
                        "(GlobalValue::Bind(\"ChecksumEnabled\", BooleanValue(true))) before "
                        "the simulation builds its nodes");
    Ptr<QueueDiscItem> corrupted = item;
    Ptr<Packet> packet = item->GetPacket();
    uint32_t firstBit = 0;
    if (Ptr<const Ipv4QueueDiscItem> ipv4 = DynamicCast<const Ipv4QueueDiscItem>(item))
    {
        // The datagram as it will leave, its header serialised with its
        // checksum, so that the flipped bit may be any of the header's too.
        packet = item->GetPacket()->Copy();
        packet->AddHeader(ipv4->GetHeader());
        Ptr<QueueDiscItem> datagram =
            Create<NetemDatagramItem>(packet, item->GetAddress(), item->GetProtocol());
        datagram->SetTxQueueIndex(item->GetTxQueueIndex());
        corrupted = datagram;
        // Linux drops a datagram with a wrong version or header length at
        // ip_rcv, before its checksum; ns-3's Ipv4Header cannot parse one (it
        // refuses another version without dropping the packet and reads IHL x
        // 4 bytes whatever is there), so that first byte is spared: the bit
        // is one of the others, and the header checksum catches it.
        firstBit = 8;
    }
    const uint64_t bitsHeld = uint64_t{packet->GetSize()} * 8;
    if (bitsHeld <= firstBit)
    {
        return item;
    }
    const std::vector<uint32_t> bits = RudpCorruptionErrorModel::FlipRandomBits(packet,
                                                                                firstBit,
                                                                                bitsHeld - firstBit,
                                                                                1,
                                                                                m_bitRandom);
    NS_LOG_LOGIC("flipped bit " << bits.front() << " of the datagram " << corrupted);
    ++m_counts.corrupted;
    m_counts.bitsFlipped += bits.size();
    m_corruptTrace(corrupted, bits.size());
    return corrupted;
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
    NS_ABORT_MSG_IF(m_corrupt > 0 && m_corruptMode == CORRUPT_LINUX && !Node::ChecksumEnabled(),
                    "NetemQueueDisc: CorruptMode Linux needs the global value ChecksumEnabled "
                    "true (Linux computes the checksums before netem corrupts)");
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
    m_delayState = Correlated();
    m_lossState = Correlated();
    m_duplicateState = Correlated();
    m_reorderState = Correlated();
    m_corruptState = Correlated();
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
