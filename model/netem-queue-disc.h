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

    /// \return whether the next packet is lost (and advances the loss model)
    bool LossEvent();
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
    DataRate m_rate;                         //!< Rate
    uint32_t m_limit;                        //!< Limit

    // State
    Ptr<NetemTfifo> m_tfifo;     //!< the internal queue
    bool m_geBad{false};         //!< Gilbert-Elliott: in the bad state
    uint32_t m_counter{0};       //!< packets delayed since the last reordered one (netem's counter)
    bool m_enqueuingCopy{false}; //!< the item being enqueued is a duplicate
    EventId m_wake;              //!< the timer that runs the queue disc
    Counts m_counts;             //!< what was done

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
