/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CORRUPTION_ERROR_MODEL_H
#define RUDP_CORRUPTION_ERROR_MODEL_H

#include "ns3/error-model.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-impairments
 * \brief An ErrorModel that flips bits of a packet instead of dropping it,
 * so that a receiver's checksum has real errors to catch.
 *
 * It never reports a packet as corrupt to the device (which would drop it):
 * it changes the packet's bytes in place and lets it through. Bits are
 * flipped only between HeaderBytes and TrailerBytes from either end; the
 * defaults leave a CSMA frame's Ethernet, IPv4 and UDP headers and its FCS
 * trailer intact (ns-3 does not check those), so the corruption lands in
 * the transport segment. ICMPv4 messages (an IPv4 header with protocol 1
 * ending 8 bytes before HeaderBytes) are never corrupted: ns-3 parses ICMP
 * without checking its checksum, and a quoted IPv4 header with a flipped bit
 * makes its parser read past the packet and abort the simulation.
 *
 * Units: per packet (BitsPerPacket distinct random bits of a packet, with
 * probability ErrorRate; one bit by default), per byte (each byte
 * independently, one random bit of it) or per bit (each bit independently).
 * The bits are chosen and flipped by FlipRandomBits, which NetemQueueDisc's
 * Corrupt uses too.
 */
class RudpCorruptionErrorModel : public ErrorModel
{
  public:
    /// What ErrorRate is a rate of.
    enum ErrorUnit
    {
        PER_PACKET,
        PER_BYTE,
        PER_BIT,
    };

    /**
     * \brief Callback signature of the Corrupt trace.
     * \param [in] packet the packet, after corruption
     * \param [in] bits the number of bits flipped
     */
    typedef void (*CorruptTracedCallback)(Ptr<const Packet> packet, uint32_t bits);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RudpCorruptionErrorModel();

    /**
     * \brief Assigns a fixed random variable stream number.
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);

    /// \return packets this model has corrupted
    uint64_t GetCorruptedPackets() const;

    /**
     * \brief Flips \p bits of \p packet in place; bit 0 is the first byte's
     * most significant bit.
     */
    static void FlipBits(Ptr<Packet> packet, const std::vector<uint32_t>& bits);

    /**
     * \brief Flips \p count distinct bits of \p packet, drawn uniformly among
     * the \p span bits that start at bit \p firstBit (numbered as FlipBits).
     *
     * Every set of \p count distinct bits is equally likely (Floyd's
     * sampling): exactly \p count draws from \p random, the j-th an integer
     * in [0, span - count + j]. With \p count 1 that is one draw in
     * [0, span - 1]. If the span holds fewer than \p count bits, all of
     * them are flipped.
     *
     * \param packet the packet, changed in place (its tags stay)
     * \param firstBit the first bit that may be flipped
     * \param span how many bits, from \p firstBit, may be flipped (at most 2^32)
     * \param count how many distinct bits to flip
     * \param random the stream the positions are drawn from
     * \return the flipped bits, ascending
     */
    static std::vector<uint32_t> FlipRandomBits(Ptr<Packet> packet,
                                                uint32_t firstBit,
                                                uint64_t span,
                                                uint32_t count,
                                                Ptr<UniformRandomVariable> random);

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    /// \return the distance to the next error among independent trials
    uint64_t NextGap();

    /**
     * \return true if \p p is an ICMPv4 message, read from the IPv4 header
     * 28 bytes before HeaderBytes (false if HeaderBytes is below 28).
     */
    bool CarriesIcmpv4(Ptr<const Packet> p) const;

    ErrorUnit m_unit{PER_PACKET};
    double m_rate{0};
    uint32_t m_headerBytes{42};
    uint32_t m_trailerBytes{4};
    uint32_t m_bitsPerPacket{1};
    Ptr<UniformRandomVariable> m_random;
    uint64_t m_corrupted{0};
    TracedCallback<Ptr<const Packet>, uint32_t> m_corruptTrace;
};

} // namespace ns3

#endif /* RUDP_CORRUPTION_ERROR_MODEL_H */
