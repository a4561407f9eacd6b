package pcpwire

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// Code is a PCP status code as it travels in PDUs and value sets: 0 is success, a value at or
// below -12345 (PM_ERR_BASE) is one of PCP's PM_ERR_* codes, any other negative value is minus
// an errno of the host that sent it. A Code is an error; errors.Is matches it exactly.
type Code int32

// errBase is PM_ERR_BASE2, the start of PCP's own codes (pmapi.h).
const errBase = 12345

// PCP's error codes (pmapi.h, "PMAPI Error Conditions"), those a client of pmcd can meet.
const (
	ErrGeneric     Code = -errBase - 0
	ErrPMNS        Code = -errBase - 1
	ErrNoPMNS      Code = -errBase - 2
	ErrText        Code = -errBase - 4
	ErrAppVersion  Code = -errBase - 5
	ErrValue       Code = -errBase - 6
	ErrTimeout     Code = -errBase - 8
	ErrNoData      Code = -errBase - 9
	ErrReset       Code = -errBase - 10
	ErrName        Code = -errBase - 12
	ErrPMID        Code = -errBase - 13
	ErrInDom       Code = -errBase - 14
	ErrInst        Code = -errBase - 15
	ErrUnit        Code = -errBase - 16
	ErrConv        Code = -errBase - 17
	ErrTrunc       Code = -errBase - 18
	ErrSign        Code = -errBase - 19
	ErrProfile     Code = -errBase - 20
	ErrIPC         Code = -errBase - 21
	ErrEOF         Code = -errBase - 23
	ErrNotHost     Code = -errBase - 24
	ErrMode        Code = -errBase - 26
	ErrNoContext   Code = -errBase - 31
	ErrProfileSpec Code = -errBase - 32
	ErrNoProfile   Code = -errBase - 36
	ErrNoAgent     Code = -errBase - 41
	ErrPermission  Code = -errBase - 42
	ErrConnLimit   Code = -errBase - 43
	ErrAgain       Code = -errBase - 44
	ErrIsConn      Code = -errBase - 45
	ErrNotConn     Code = -errBase - 46
	ErrNeedPort    Code = -errBase - 47
	ErrNonLeaf     Code = -errBase - 49
	ErrType        Code = -errBase - 52
	ErrThread      Code = -errBase - 53
	ErrNoContainer Code = -errBase - 54
	ErrBadStore    Code = -errBase - 55
	ErrNeedCert    Code = -errBase - 63 // PM_ERR_NEEDCLIENTCERT
	ErrBadDerive   Code = -errBase - 64
	ErrNoLabels    Code = -errBase - 65
	ErrPMDAFenced  Code = -errBase - 66
	ErrTLS         Code = -errBase - 69
	ErrArg         Code = -errBase - 70
	ErrBotch       Code = -errBase - 97
	ErrTooSmall    Code = -errBase - 98
	ErrTooBig      Code = -errBase - 99
	ErrPMDAReady   Code = -errBase - 1048
	ErrPMDANotRdy  Code = -errBase - 1049
	ErrNYI         Code = -errBase - 8999
)

// codeText is each code's name and what it means, as PCP's tools print them (pmerr(1)).
var codeText = map[Code][2]string{
	ErrGeneric:     {"PM_ERR_GENERIC", "Generic error, already reported above"},
	ErrPMNS:        {"PM_ERR_PMNS", "Problems parsing PMNS definitions"},
	ErrNoPMNS:      {"PM_ERR_NOPMNS", "PMNS not accessible"},
	ErrText:        {"PM_ERR_TEXT", "One-line or help text is not available"},
	ErrAppVersion:  {"PM_ERR_APPVERSION", "Metric not supported by this version of monitored application"},
	ErrValue:       {"PM_ERR_VALUE", "Missing metric value(s)"},
	ErrTimeout:     {"PM_ERR_TIMEOUT", "Timeout waiting for a response from PMCD"},
	ErrNoData:      {"PM_ERR_NODATA", "Empty archive file"},
	ErrReset:       {"PM_ERR_RESET", "PMCD reset or configuration change"},
	ErrName:        {"PM_ERR_NAME", "Unknown metric name"},
	ErrPMID:        {"PM_ERR_PMID", "Unknown or illegal metric identifier"},
	ErrInDom:       {"PM_ERR_INDOM", "Unknown or illegal instance domain identifier"},
	ErrInst:        {"PM_ERR_INST", "Unknown or illegal instance identifier"},
	ErrUnit:        {"PM_ERR_UNIT", "Illegal pmUnits specification"},
	ErrConv:        {"PM_ERR_CONV", "Impossible value or scale conversion"},
	ErrTrunc:       {"PM_ERR_TRUNC", "Truncation in value conversion"},
	ErrSign:        {"PM_ERR_SIGN", "Negative value in conversion to unsigned"},
	ErrProfile:     {"PM_ERR_PROFILE", "Explicit instance identifier(s) required"},
	ErrIPC:         {"PM_ERR_IPC", "IPC protocol failure"},
	ErrEOF:         {"PM_ERR_EOF", "IPC channel closed"},
	ErrNotHost:     {"PM_ERR_NOTHOST", "Operation requires context with host source of metrics"},
	ErrMode:        {"PM_ERR_MODE", "Illegal mode specification"},
	ErrNoContext:   {"PM_ERR_NOCONTEXT", "Attempt to use an illegal context"},
	ErrProfileSpec: {"PM_ERR_PROFILESPEC", "NULL pmInDom with non-NULL instlist"},
	ErrNoProfile:   {"PM_ERR_NOPROFILE", "Missing profile - protocol botch"},
	ErrNoAgent:     {"PM_ERR_NOAGENT", "No PMCD agent for domain of request"},
	ErrPermission:  {"PM_ERR_PERMISSION", "No permission to perform requested operation"},
	ErrConnLimit:   {"PM_ERR_CONNLIMIT", "PMCD connection limit for this host exceeded"},
	ErrAgain:       {"PM_ERR_AGAIN", "Try again. Information not currently available"},
	ErrIsConn:      {"PM_ERR_ISCONN", "Already Connected"},
	ErrNotConn:     {"PM_ERR_NOTCONN", "Not Connected"},
	ErrNeedPort:    {"PM_ERR_NEEDPORT", "A non-null port name is required"},
	ErrNonLeaf:     {"PM_ERR_NONLEAF", "Metric name is not a leaf in PMNS"},
	ErrType:        {"PM_ERR_TYPE", "Unknown or illegal metric type"},
	ErrThread:      {"PM_ERR_THREAD", "Operation not supported for multi-threaded applications"},
	ErrNoContainer: {"PM_ERR_NOCONTAINER", "Container not found"},
	ErrBadStore:    {"PM_ERR_BADSTORE", "Bad input to pmstore"},
	ErrNeedCert:    {"PM_ERR_NEEDCLIENTCERT", "PMCD requires a client certificate"},
	ErrBadDerive:   {"PM_ERR_BADDERIVE", "Derived metric definition failed"},
	ErrNoLabels:    {"PM_ERR_NOLABELS", "No support for metric label metadata"},
	ErrPMDAFenced:  {"PM_ERR_PMDAFENCED", "PMDA is currently fenced and unable to respond to requests"},
	ErrTLS:         {"PM_ERR_TLS", "TLS protocol failure"},
	ErrArg:         {"PM_ERR_ARG", "Bad value for function argument"},
	ErrBotch:       {"PM_ERR_BOTCH", "Internal inconsistency detected or assertion failed"},
	ErrTooSmall:    {"PM_ERR_TOOSMALL", "Insufficient elements in list"},
	ErrTooBig:      {"PM_ERR_TOOBIG", "Result size exceeded"},
	ErrPMDAReady:   {"PM_ERR_PMDAREADY", "PMDA is now responsive to requests"},
	ErrPMDANotRdy:  {"PM_ERR_PMDANOTREADY", "PMDA is not yet ready to respond to requests"},
	ErrNYI:         {"PM_ERR_NYI", "Functionality not yet implemented"},
}

// Name is the code's symbol: PM_ERR_NAME, or an errno's (ECONNRESET), or "code N".
func (c Code) Name() string {
	if t, ok := codeText[c]; ok {
		return t[0]
	}
	if c < 0 && c > -errBase {
		if n := unix.ErrnoName(syscall.Errno(-c)); n != "" {
			return n
		}
	}
	return fmt.Sprintf("code %d", int32(c))
}

// Text says what the code means, as PCP's pmErrStr does.
func (c Code) Text() string {
	if t, ok := codeText[c]; ok {
		return t[1]
	}
	switch {
	case c == 0:
		return "No error"
	case c < 0 && c > -errBase:
		return syscall.Errno(-c).Error()
	case c <= -errBase:
		return "Unknown PCP error code"
	}
	return "not an error code"
}

// Error is the code's name and text: "PM_ERR_NAME: Unknown metric name".
func (c Code) Error() string {
	if c == 0 {
		return "no error"
	}
	return c.Name() + ": " + c.Text()
}

// v1Base is PM_ERR_BASE1: pmcd's first PDU carries its status as a PCP 1.x code (p_error.c), a
// legacy of the move from the 1.x protocol.
const v1Base = 1000

// fromV1 turns a 1.x status code into today's.
func fromV1(c int32) Code {
	if c <= -v1Base {
		return Code(c + v1Base - errBase)
	}
	return Code(c)
}

// toV1 is the reverse of fromV1, for a server's first PDU (tests).
func toV1(c Code) int32 {
	if c <= -errBase {
		return int32(c) - v1Base + errBase
	}
	return int32(c)
}

// ProtocolError is a PDU that breaks PCP's encoding: a length, count or offset that does not
// fit the bytes there are. It wraps ErrIPC, as libpcp reports every such PDU.
type ProtocolError struct {
	PDU    Type   // the PDU's type (0 for an archive record)
	Offset int    // bytes from the start of the PDU (its header included)
	Msg    string // what is wrong
	Code   Code   // what it unwraps to: ErrIPC when 0
}

func (e *ProtocolError) Error() string {
	if e.PDU == 0 {
		return fmt.Sprintf("byte %d: %s", e.Offset, e.Msg)
	}
	return fmt.Sprintf("%s PDU, byte %d: %s", e.PDU, e.Offset, e.Msg)
}

// Unwrap makes errors.Is(err, ErrIPC) true (or ErrTooBig for a PDU over the limit).
func (e *ProtocolError) Unwrap() error {
	if e.Code != 0 {
		return e.Code
	}
	return ErrIPC
}

func protoErr(t Type, off int, format string, a ...any) error {
	return &ProtocolError{PDU: t, Offset: off, Msg: fmt.Sprintf(format, a...)}
}
