/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_ADDRESSES_H
#define RUDP_CMT_ADDRESSES_H

#include "rudp-deadline.h"

#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-cmt
 * \brief What an INIT and an INIT-ACK carry: the sender's association key
 * and its addresses.
 *
 * Wire layout of the payload, network byte order:
 * \verbatim
  +---------------------------------------------------------------+
  |                  Association key (64 bits)                    |
  |                                                               |
  +---------------------------------------------------------------+
  |                 Address 1 .. n (4 bytes each)                 |
 \endverbatim
 * The key is random, drawn by each end for its association (MPTCP's key,
 * RFC 8684 3.1; SCTP's verification tag, RFC 9260 8.5, plays the part in
 * SCTP): the peer must give it back in every address change it asks for
 * (RudpCmtAddressChange), so that only the end that took part in the
 * handshake can add or delete the association's addresses.
 */
struct RudpCmtInit
{
    static constexpr uint32_t MAX_ADDRESSES = 16; ///< most addresses an INIT lists
    static constexpr uint32_t KEY_SIZE = 8;       ///< bytes of the key

    uint64_t key{0};                    ///< the sender's association key
    std::vector<Ipv4Address> addresses; ///< the sender's addresses (1 to MAX_ADDRESSES)

    /// \return the payload
    Ptr<Packet> Encode() const;
    /**
     * \param payload an INIT's or INIT-ACK's payload
     * \param[out] init what it says, duplicate addresses dropped
     * \return false unless it is a key and a list of 1 to MAX_ADDRESSES
     *         unicast addresses
     */
    static bool Decode(Ptr<const Packet> payload, RudpCmtInit& init);
    /// \return true if \p address may name an end of a path (unicast, not loopback)
    static bool IsUsable(Ipv4Address address);
};

/**
 * \ingroup rudp-cmt
 * \brief An address change and its acknowledgment (RFC 5061's ASCONF and
 * ASCONF-ACK, reduced to the two parameters an association of IPv4 paths
 * needs): the payload of a segment with the ADDRESS_CHANGE flag (with ACK:
 * the acknowledgment).
 *
 * Wire layout, network byte order:
 * \verbatim
  +---------------------------------------------------------------+
  |          Tag: the receiver's association key (64 bits)        |
  |                                                               |
  +---------------------------------------------------------------+
  |                        Serial number                          |
  +---------------+---------------+-------------------------------+
  |     Type      |    Result     |  Address ...                  |
  +---------------+---------------+-------------------------------+
  |  ... Address                  |  (1 to MAX_PARAMETERS parameters)
  +-------------------------------+
 \endverbatim
 * A request's results are REQUESTED; its acknowledgment repeats its serial
 * number and parameters, each with DONE or REFUSED, and carries the
 * requester's key as its tag.
 */
struct RudpCmtAddressChange
{
    static constexpr uint32_t HEADER_SIZE = 12;    ///< bytes before the parameters
    static constexpr uint32_t PARAMETER_SIZE = 6;  ///< bytes of a parameter
    static constexpr uint32_t MAX_PARAMETERS = 16; ///< most parameters one change carries

    /// What a parameter asks (RFC 5061 4.2.1 and 4.2.2).
    enum Type : uint8_t
    {
        ADD = 1,    ///< the address is the sender's too
        DELETE = 2, ///< the address is no longer the sender's
    };

    /// What became of a parameter.
    enum Result : uint8_t
    {
        REQUESTED = 0, ///< in a request
        DONE = 1,      ///< in an acknowledgment: applied
        REFUSED = 2,   ///< in an acknowledgment: not applied (RFC 5061 5.2's errors)
    };

    /// One address added or deleted.
    struct Parameter
    {
        Type type{ADD};           ///< what is asked
        Result result{REQUESTED}; ///< what became of it
        Ipv4Address address;      ///< the address
    };

    uint64_t tag{0};                   ///< the receiver's association key
    uint32_t serial{0};                ///< the request's serial number (RFC 5061 5.1)
    std::vector<Parameter> parameters; ///< 1 to MAX_PARAMETERS

    /// \return the payload
    Ptr<Packet> Encode() const;
    /**
     * \param payload an ADDRESS_CHANGE segment's payload
     * \param[out] change what it says
     * \return false unless it has 1 to MAX_PARAMETERS parameters of known
     *         types and results, each naming a usable address
     */
    static bool Decode(Ptr<const Packet> payload, RudpCmtAddressChange& change);
    /// \return the name of \p type
    static const char* TypeName(Type type);
};

/**
 * \ingroup rudp-cmt
 * \brief The requesting end of address changes (RFC 5061 5.1): the
 * parameters waiting to be asked, at most one request outstanding, resent
 * with a backed-off timeout until it is acknowledged.
 *
 * A parameter announced while another for the same address waits unsent
 * replaces it (an address added then removed before its ADD left is not
 * announced at all). After MaxRetries resends unanswered the owner is told
 * (the association's error count: RFC 5061 5.1, A5).
 */
class RudpCmtAddressAnnouncer
{
  public:
    /**
     * \param send sends a request's payload to the peer
     * \param unanswered called when a request went unanswered \p maxRetries + 1 times
     */
    void SetCallbacks(Callback<void, Ptr<Packet>> send, Callback<void, uint32_t> unanswered);
    /**
     * \brief Starts announcing to a peer.
     * \param peerKey the peer's association key (its INIT's), the tag of every request
     * \param rto the first timeout of a request
     * \param maxRto the largest, after backoffs
     * \param maxRetries resends before the owner is told
     */
    void Start(uint64_t peerKey, Time rto, Time maxRto, uint32_t maxRetries);
    /// Stops: nothing more is sent.
    void Stop();
    /**
     * \brief Asks the peer to add or delete \p address (now, or once the
     * outstanding request is acknowledged).
     * \param type ADD or DELETE
     * \param address one of this end's addresses
     */
    void Announce(RudpCmtAddressChange::Type type, Ipv4Address address);
    /**
     * \param address an address
     * \return true if a parameter for \p address waits or is outstanding
     */
    bool IsPending(Ipv4Address address) const;
    /**
     * \brief Takes the acknowledgment of a request.
     * \param ack a decoded ADDRESS_CHANGE|ACK
     * \param localKey this end's association key (the acknowledgment's tag)
     * \param[out] answered the outstanding request's parameters, with their results
     * \return false (and nothing changed) unless \p ack answers the
     *         outstanding request: tag, serial number and parameters
     */
    bool Acknowledge(const RudpCmtAddressChange& ack,
                     uint64_t localKey,
                     std::vector<RudpCmtAddressChange::Parameter>& answered);

  private:
    /// Sends the next request if none is outstanding.
    void SendNext();
    /// The outstanding request went unanswered: sends it again.
    void Expired();

    Callback<void, Ptr<Packet>> m_send;    ///< sends a payload
    Callback<void, uint32_t> m_unanswered; ///< told of a request unanswered too often
    std::deque<RudpCmtAddressChange::Parameter> m_waiting; ///< announced, not yet asked
    RudpCmtAddressChange m_outstanding; ///< the request sent and not acknowledged
    bool m_awaitingAck{false};          ///< m_outstanding is outstanding
    bool m_running{false};              ///< Start was called, Stop was not
    uint32_t m_nextSerial{1};           ///< the serial number of the next request
    uint32_t m_retries{0};              ///< resends of the outstanding request
    uint32_t m_maxRetries{0};           ///< resends before m_unanswered
    Time m_rto;                         ///< the first timeout
    Time m_maxRto;                      ///< the largest timeout
    Time m_timeout;                     ///< the outstanding request's timeout
    RudpDeadline m_timer;               ///< expires when the outstanding request is late
};

/**
 * \ingroup rudp-cmt
 * \brief The receiving end of address changes (RFC 5061 5.2): which
 * request comes next, and the acknowledgment of the last one, sent again
 * when that request is (its acknowledgment was lost).
 */
class RudpCmtAddressRequests
{
  public:
    /// What to do with a request.
    enum Verdict
    {
        APPLY,  ///< the next request: apply it, then Answered()
        REPEAT, ///< the last request again: send GetLastAnswer() again
        DROP,   ///< not ours (wrong tag) or out of order: ignore it
    };

    /**
     * \param request a decoded ADDRESS_CHANGE
     * \param localKey this end's association key (the request's tag)
     * \return what to do with it
     */
    Verdict Admit(const RudpCmtAddressChange& request, uint64_t localKey) const;
    /**
     * \brief Records the acknowledgment of the request just applied.
     * \param ack its payload
     * \param serial its serial number
     */
    void Answered(Ptr<const Packet> ack, uint32_t serial);
    /// \return the acknowledgment of the last request applied (null before the first)
    Ptr<const Packet> GetLastAnswer() const;

  private:
    uint32_t m_lastSerial{0};   ///< the last request applied (serial numbers start at 1)
    Ptr<const Packet> m_answer; ///< its acknowledgment
};

} // namespace ns3

#endif /* RUDP_CMT_ADDRESSES_H */
