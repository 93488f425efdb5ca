/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NETEM_QUEUE_DISC_H
#define NETEM_QUEUE_DISC_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <list>

namespace ns3
{

/**
 * \ingroup rudp-impairments
 * \brief The time-ordered queue inside NetemQueueDisc (Linux netem's tfifo).
 *
 * Items wait sorted by the time they are due (their time to send); items of
 * equal time keep their arrival order. Items put "at once" (netem's
 * reordered packets) go before every other item, the latest first, and are
 * due at once. A NetemQueueDisc holds one of these as its internal queue, so
 * the queue disc's packet and byte counts, traces and statistics are ns-3's
 * own. Not meant for use on its own.
 */
class NetemTfifo : public Queue<QueueDiscItem>
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    NetemTfifo();
    ~NetemTfifo() override;

    /// Puts \p item in, due now, after every item due by now.
    bool Enqueue(Ptr<QueueDiscItem> item) override;
    /// Takes out the first item (due or not).
    Ptr<QueueDiscItem> Dequeue() override;
    /// Takes out the first item as dropped (due or not).
    Ptr<QueueDiscItem> Remove() override;
    /// \return the first item, without taking it out
    Ptr<const QueueDiscItem> Peek() const override;

    /**
     * \brief Puts \p item in, due at \p timeToSend (which may be in the
     * past), after every item due at or before that time.
     * \param item the item
     * \param timeToSend when it is due
     * \return false if the queue was full (the item is then dropped)
     */
    bool EnqueueAt(Ptr<QueueDiscItem> item, Time timeToSend);

    /**
     * \brief Puts \p item first, due now (netem's reorder).
     * \param item the item
     * \return false if the queue was full (the item is then dropped)
     */
    bool EnqueueAtOnce(Ptr<QueueDiscItem> item);

    /**
     * \brief When the first item is due.
     * \return its time to send (the time it was put in, for an item put at
     * once); the queue must not be empty
     */
    Time GetHeadTimeToSend() const;

    /// \return whether the first item was put in at once (and so is due now)
    bool IsHeadAtOnce() const;

    /**
     * \brief The latest time to send of any item held (what netem's Rate
     * counts from); the queue must not be empty.
     * \return that time
     */
    Time GetLastTimeToSend() const;

  protected:
    void DoDispose() override;

  private:
    /// Iterator to the first item of the container.
    ConstIterator First() const;
    /// Iterator past the last item of the container.
    ConstIterator End() const;
    /// Drops the bookkeeping of the first item, just taken out.
    void PopFront();

    std::list<Time> m_timeToSend; //!< each item's time to send, in the container's order
    size_t m_atOnce{0};           //!< how many items at the front were put in at once

    NS_LOG_TEMPLATE_DECLARE; //!< the log component (Queue's own is private)
};

/**
 * \ingroup rudp-impairments
 * \brief Linux netem (sch_netem) as an ns-3 queue disc: delay, jitter,
 * loss (random or Gilbert-Elliott), duplication, reordering, corruption,
 * rate and limit.
 *
 * Install it as the root queue disc of any device with
 * TrafficControlHelper::SetRootQueueDisc("ns3::NetemQueueDisc", ...). On
 * enqueue, in netem's order: a duplicate is decided, then loss (a lost
 * packet with a duplicate leaves one copy), then corruption of the
 * original (the duplicate was copied before), then the Limit. The duplicate
 * goes through the whole queue disc again, once, after the original. The
 * original is then either sent at once, ahead of every packet waiting
 * (Reorder, with ReorderGap), or given a time to send: now + Delay +
 * jitter, counted from the last packet held and plus the serialisation time
 * when Rate is set. Packets leave in order of their time to send, so
 * jitter reorders them as netem's tfifo does; a timer runs the queue disc
 * when the first packet is due.
 *
 * Loss (random), duplication, reordering, corruption and the jitter may be
 * correlated with their previous draw as netem's are (get_crandom, in
 * netem's 32-bit arithmetic); with a correlation of 0 each draw is
 * independent. Corruption flips CorruptBits bits of the IP payload
 * (CorruptMode PayloadBits) or, as Linux does, one bit of the whole IPv4
 * datagram after its checksums (CorruptMode Linux). Gilbert-Elliott's r
 * defaults to 1 - p, as tc's.
 *
 * Each impairment draws from its own random stream (AssignStreams), so
 * changing one leaves the others' draws as they were; no stream is drawn
 * from while its impairment is off. See doc/netem.rst for every difference
 * from Linux.
 */
class NetemQueueDisc : public QueueDisc
{
  public:
    /// How packets are lost.
    enum LossModel
    {
        RANDOM_LOSS,          //!< each packet with probability Loss (netem's loss random)
        GILBERT_ELLIOTT_LOSS, //!< netem's loss gemodel p r 1-h 1-k
    };

    /// The distribution of the jitter.
    enum JitterDistribution
    {
        UNIFORM_JITTER, //!< uniform in [Delay - Jitter, Delay + Jitter) (netem's default)
        NORMAL_JITTER,  //!< Delay + Jitter x N(0, 1), cut at 4 Jitter (distribution normal)
    };

    /// Which bits Corrupt flips.
    enum CorruptMode
    {
        CORRUPT_PAYLOAD_BITS, //!< CorruptBits bits of the IP payload; checksums untouched
        CORRUPT_LINUX,        //!< one bit of the whole IP datagram, headers included (Linux)
    };

    /// What the queue disc has done to the packets it received.
    struct Counts
    {
        uint64_t lost{0};         //!< packets dropped by Loss (also in the queue disc stats)
        uint64_t limitDropped{0}; //!< packets dropped because Limit packets were held
        uint64_t duplicated{0};   //!< copies made and enqueued (Duplicate)
        uint64_t reordered{0};    //!< packets sent at once, ahead of the others (Reorder)
        uint64_t corrupted{0};    //!< packets corrupted (Corrupt), Limit drops included
        uint64_t bitsFlipped{0};  //!< bits flipped in all
    };

    /**
     * \brief Callback signature of the Corrupt trace.
     * \param [in] item the item, after corruption
     * \param [in] bits how many bits were flipped
     */
    typedef void (*CorruptTracedCallback)(Ptr<const QueueDiscItem> item, uint32_t bits);

    static constexpr const char* LOSS_DROP = "Loss drop";   //!< dropped by Loss
    static constexpr const char* LIMIT_DROP = "Limit drop"; //!< dropped: Limit packets held

    /// GeR's value that stands for 1 - GeP (tc's r when only p is given).
    static constexpr double GE_R_ONE_MINUS_P = -1.0;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    NetemQueueDisc();
    ~NetemQueueDisc() override;

    /**
     * \brief Assigns fixed random variable stream numbers.
     * \param stream first stream index to use
     * \return the number of stream indices assigned (7)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return what the queue disc has done so far
    const Counts& GetCounts() const;

    /**
     * \brief Sets the most packets held (netem's limit).
     * \param limit packets
     */
    void SetLimit(uint32_t limit);

    /// \return the most packets held
    uint32_t GetLimit() const;

  protected:
    void DoDispose() override;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    /// netem's crndstate: the state of one correlated generator (get_crandom).
    struct Correlated
    {
        uint32_t last{0};    //!< the previous value returned
        bool started{false}; //!< whether last holds a value yet
    };

    /**
     * \brief netem's get_crandom: a uniform 32-bit value blended with the
     * previous one, (value (2^32 - rho) + last rho) / 2^32, rho the
     * correlation scaled to 32 bits as tc scales it. The first call draws
     * the initial last value (netem's init_crandom) from \p random too.
     * \param random the stream
     * \param correlation the correlation, in (0, 1]
     * \param state the generator's state
     * \return the value, in [0, 2^32)
     */
    static uint32_t DrawCorrelated(Ptr<UniformRandomVariable> random,
                                   double correlation,
                                   Correlated& state);

    /**
     * \brief Whether an event of probability \p p happens: a uniform draw
     * below \p p without correlation (as before correlations existed), else
     * netem's comparison of the correlated value with p scaled to 32 bits.
     * \param p the probability, in (0, 1]
     * \param random the stream
     * \param correlation the correlation, in [0, 1]
     * \param state the generator's state
     * \return true if it happens
     */
    static bool Happens(double p,
                        Ptr<UniformRandomVariable> random,
                        double correlation,
                        Correlated& state);

    /// \return whether the next packet is lost (and advances the loss model)
    bool LossEvent();
    /// \return GeR, or 1 - GeP where GeR is GE_R_ONE_MINUS_P
    double EffectiveGeR() const;
    /**
     * \brief Flips one bit of \p item as Linux's netem does: anywhere in the
     * datagram, its IPv4 header included, after the checksums.
     * \param item the item
     * \return the item to enqueue instead (the corrupted datagram, header
     * included), or \p item itself if it was corrupted in place
     */
    Ptr<QueueDiscItem> CorruptLikeLinux(Ptr<QueueDiscItem> item);
    /// \return the delay of the next delayed packet: Delay plus jitter (may be negative)
    Time DrawDelay();
    /// \return a copy of \p item, of the same kind (IPv4, IPv6, ARP or plain)
    static Ptr<QueueDiscItem> CopyItem(Ptr<const QueueDiscItem> item);
    /// Runs the queue disc at \p when, unless a run is due by then already.
    void WakeAt(Time when);

    // Attributes
    Time m_delay;                            //!< Delay
    Time m_jitter;                           //!< Jitter
    JitterDistribution m_jitterDistribution; //!< JitterDistribution
    LossModel m_lossModel;                   //!< LossModel
    double m_loss;                           //!< Loss
    double m_geP;                            //!< GeP
    double m_geR;                            //!< GeR
    double m_ge1MinusH;                      //!< Ge1MinusH
    double m_ge1MinusK;                      //!< Ge1MinusK
    double m_duplicate;                      //!< Duplicate
    double m_reorder;                        //!< Reorder
    uint32_t m_reorderGap;                   //!< ReorderGap
    double m_corrupt;                        //!< Corrupt
    uint32_t m_corruptBits;                  //!< CorruptBits
    CorruptMode m_corruptMode;               //!< CorruptMode
    double m_delayCorrelation;               //!< DelayCorrelation
    double m_lossCorrelation;                //!< LossCorrelation
    double m_duplicateCorrelation;           //!< DuplicateCorrelation
    double m_reorderCorrelation;             //!< ReorderCorrelation
    double m_corruptCorrelation;             //!< CorruptCorrelation
    DataRate m_rate;                         //!< Rate
    uint32_t m_limit;                        //!< Limit

    // State
    Ptr<NetemTfifo> m_tfifo;     //!< the internal queue
    bool m_geBad{false};         //!< Gilbert-Elliott: in the bad state
    uint32_t m_counter{0};       //!< packets delayed since the last reordered one (netem's counter)
    bool m_enqueuingCopy{false}; //!< the item being enqueued is a duplicate
    EventId m_wake;              //!< the timer that runs the queue disc
    Counts m_counts;             //!< what was done
    Correlated m_delayState;     //!< DelayCorrelation's generator
    Correlated m_lossState;      //!< LossCorrelation's generator
    Correlated m_duplicateState; //!< DuplicateCorrelation's generator
    Correlated m_reorderState;   //!< ReorderCorrelation's generator
    Correlated m_corruptState;   //!< CorruptCorrelation's generator

    Ptr<UniformRandomVariable> m_lossRandom;      //!< Loss and the Gilbert-Elliott model
    Ptr<UniformRandomVariable> m_duplicateRandom; //!< Duplicate
    Ptr<UniformRandomVariable> m_corruptRandom;   //!< Corrupt: which packets
    Ptr<UniformRandomVariable> m_bitRandom;       //!< Corrupt: which bits
    Ptr<UniformRandomVariable> m_reorderRandom;   //!< Reorder
    Ptr<UniformRandomVariable> m_uniformJitter;   //!< uniform jitter
    Ptr<NormalRandomVariable> m_normalJitter;     //!< normal jitter

    TracedCallback<Ptr<const QueueDiscItem>> m_duplicateTrace;         //!< Duplicate trace
    TracedCallback<Ptr<const QueueDiscItem>> m_reorderTrace;           //!< Reorder trace
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t> m_corruptTrace; //!< Corrupt trace
};

} // namespace ns3

#endif /* NETEM_QUEUE_DISC_H */
