# Asks the installed libpcp (through python3-pcp's ctypes handle) what its
# text and conversion functions return. Reads commands on stdin, one per
# line, and writes one answer line per command:
#   units HEXWORD            -> pmUnitsStr_r text
#   type N | sem N | err N   -> pmTypeStr_r / pmSemStr_r / pmErrStr_r text
#   extract FMT IN OUT HEX   -> pmExtractValue; FMT 0 = insitu (HEX is the
#                               32-bit word), 1 = value block (HEX is the
#                               big-endian payload as it travels)
#   atom TYPE HEX            -> pmAtomStr_r of a value given as in extract
#                               answers (big-endian bits, or the bytes)
#   desc TYPE INDOMHEX SEM UNITSHEX -> pmPrintDesc output, lines joined by "|"
#   conv TYPE HEXVAL INUNITS OUTUNITS -> pmConvScale, run in a forked child
#                               because some unit pairs make libpcp divide
#                               by zero ("crash" then)
# Answers to extract/conv are "ok HEX" (the output atom's bytes, see
# atomhex) or "err CODE".
import ctypes, os, struct, sys
from pcp import pmapi

L = pmapi.LIBPCP
for f in ("pmUnitsStr_r", "pmTypeStr_r", "pmSemStr_r", "pmErrStr_r"):
    getattr(L, f).restype = ctypes.c_char_p

def text(fn, arg):
    buf = ctypes.create_string_buffer(512)
    fn(arg, buf, 512)
    return buf.value.decode("utf-8", "replace")

def units(word):
    return pmapi.pmUnits.from_buffer_copy(struct.pack("=I", word))

FIX = {2: "q", 3: "Q", 4: "f", 5: "d"}
SIZE = {0: 4, 1: 4, 2: 8, 3: 8, 4: 4, 5: 8}

def atomhex(atom, t):
    # Fixed-size results as big-endian bytes of their width; strings as
    # their bytes; aggregates as the payload of the returned block.
    if t in (0, 1, 4):
        return struct.pack(">I", ctypes.cast(ctypes.byref(atom), ctypes.POINTER(ctypes.c_uint32)).contents.value).hex()
    if t in (2, 3, 5):
        return struct.pack(">Q", ctypes.cast(ctypes.byref(atom), ctypes.POINTER(ctypes.c_uint64)).contents.value).hex()
    if t == 6:
        return "s" + (atom.cp or b"").hex()
    if t == 7:
        vb = ctypes.cast(atom.vp, ctypes.POINTER(ctypes.c_uint32))
        hdr = vb[0]
        vlen = hdr & 0xffffff
        return "a" + ctypes.string_at(atom.vp + 4, vlen - 4).hex()
    return "?"

class Desc(ctypes.Structure):
    _fields_ = [("pmid", ctypes.c_uint), ("type", ctypes.c_int), ("indom", ctypes.c_uint),
                ("sem", ctypes.c_int), ("units", ctypes.c_uint32)]

def desc(t, indom, sem, units):
    # pmPrintDesc writes to a FILE; give it a pipe and read it back.
    libc = ctypes.CDLL("libc.so.6")
    libc.fdopen.restype = ctypes.c_void_p
    rd, wr = os.pipe()
    fp = ctypes.c_void_p(libc.fdopen(wr, b"w"))
    d = Desc(0, t, indom, sem, units)
    L.pmPrintDesc(fp, ctypes.byref(d))
    libc.fclose(fp)
    out = os.read(rd, 4096).decode()
    os.close(rd)
    return "|".join(out.rstrip("\n").split("\n"))

def atom(t, data):
    a = pmapi.pmAtomValue()
    keep = None
    if t in (0, 1, 2, 3, 4, 5):
        raw = data[::-1]
        ctypes.memmove(ctypes.byref(a), raw, len(raw))
    elif t == 6:
        keep = ctypes.create_string_buffer(data)
        a.cp = ctypes.cast(keep, ctypes.c_char_p)
    else:
        keep = ctypes.create_string_buffer(4 + len(data))
        struct.pack_into("<I", keep, 0, (t & 0xff) << 24 | (4 + len(data)))
        keep[4:] = data
        a.vp = ctypes.cast(keep, ctypes.c_void_p)
    buf = ctypes.create_string_buffer(512)
    L.pmAtomStr_r(ctypes.byref(a), t, buf, 512)
    return buf.value.decode("utf-8", "replace")

def extract(fmt, tin, tout, data):
    v = pmapi.pmValue()
    keep = None
    if fmt == 0:
        if len(data) != 4:
            return "?"
        v.value.lval = struct.unpack(">i", data)[0]
    else:
        payload = data
        if tin in FIX and len(payload) == struct.calcsize(FIX[tin]):
            payload = payload[::-1]  # host order, as libpcp's decoder leaves it
        keep = ctypes.create_string_buffer(4 + len(payload) + 8)
        hdr = (tin & 0xff) << 24 | (4 + len(payload))
        struct.pack_into("<I", keep, 0, hdr)
        keep[4:4 + len(payload)] = payload
        v.value.pval = ctypes.cast(keep, ctypes.POINTER(pmapi.pmValueBlock))
    out = pmapi.pmAtomValue()
    sts = L.pmExtractValue(fmt, ctypes.byref(v), tin, ctypes.byref(out), tout)
    if sts < 0:
        return "err %d" % sts
    return "ok " + atomhex(out, tout)

def conv(t, data, uin, uout):
    a = pmapi.pmAtomValue()
    raw = data[::-1]
    ctypes.memmove(ctypes.byref(a), raw, len(raw))
    out = pmapi.pmAtomValue()
    i, o = units(uin), units(uout)
    sts = L.pmConvScale(t, ctypes.byref(a), ctypes.byref(i), ctypes.byref(out), ctypes.byref(o))
    if sts < 0:
        return "err %d" % sts
    return "ok " + atomhex(out, t)

for line in sys.stdin:
    f = line.split()
    if not f:
        continue
    if f[0] == "units":
        r = text(L.pmUnitsStr_r, units(int(f[1], 16)))
    elif f[0] == "type":
        r = text(L.pmTypeStr_r, int(f[1]))
    elif f[0] == "sem":
        r = text(L.pmSemStr_r, int(f[1]))
    elif f[0] == "err":
        r = text(L.pmErrStr_r, int(f[1]))
    elif f[0] == "atom":
        r = atom(int(f[1]), bytes.fromhex(f[2] if len(f) > 2 else ""))
    elif f[0] == "desc":
        r = desc(int(f[1]), int(f[2], 16), int(f[3]), int(f[4], 16))
    elif f[0] == "extract":
        r = extract(int(f[1]), int(f[2]), int(f[3]), bytes.fromhex(f[4] if len(f) > 4 else ""))
    elif f[0] == "conv":
        rd, wr = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(rd)
            os.write(wr, conv(int(f[1]), bytes.fromhex(f[2]), int(f[3], 16), int(f[4], 16)).encode())
            os._exit(0)
        os.close(wr)
        r = os.read(rd, 4096).decode()
        os.close(rd)
        _, status = os.waitpid(pid, 0)
        if status != 0:
            r = "crash"
    else:
        r = "?"
    sys.stdout.write(r + "\n")
    sys.stdout.flush()
