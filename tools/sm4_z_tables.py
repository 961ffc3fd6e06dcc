#!/usr/bin/env python3
# Derives the constants of sm4-armv8ce's one-block rounds (src/arm/sm4_armv8ce.c:
# m_tables, m_gather, m_shift, m_sub, z_transpose, z_out) and checks the round
# as the NEON code runs it -- AESE, TBL, USHL, SLI, EXT, AESMC, modelled byte
# by byte -- against a plain SM4 on the standard's vector and random blocks.
# Prints the C definitions. Run: python3 tools/sm4_z_tables.py
#
# S(x) = T2 SB(T1 x + c1) + c2 (SB: AES's S-box) with T1, T2 and the
# constants of src/x86/sm4_aesni.c (nibble tables below, as in the C file).
# In the Z domain (Z = T1 X bytewise) a round is Z4 = Z0 ^ M(y) with
# y = SB(Z1 ^ Z2 ^ Z3 ^ T1(rk) + c1) and M(y) = T1(L(T2 y + c2)), affine on
# the four bytes of y; byte c of M(y) is the sum over d of B_d(y[c - d])
# (8x8 blocks depending on d only) plus one constant in every byte.
def gmul(a, b, poly):
    r = 0
    while b:
        if b & 1: r ^= a
        b >>= 1; a <<= 1
        if a & 0x100: a ^= poly
    return r
def ginv(a, poly):
    if a == 0: return 0
    for b in range(1, 256):
        if gmul(a, b, poly) == 1: return b
def matvec(cols, x):
    r = 0
    for i in range(8):
        if x >> i & 1: r ^= cols[i]
    return r
A = [0xcb, 0x97, 0x2f, 0x5e, 0xbc, 0x79, 0xf2, 0xe5]
SM4S = [matvec(A, ginv(matvec(A, x) ^ 0xd3, 0x1f5)) ^ 0xd3 for x in range(256)]
assert SM4S[0] == 0xd6 and SM4S[1] == 0x90 and SM4S[255] == 0x48, (hex(SM4S[0]), hex(SM4S[1]))
def aes_sb(x):
    b = ginv(x, 0x11b)
    r = b
    for s in (1, 2, 3, 4):
        r ^= ((b << s) | (b >> (8 - s))) & 0xff
    return r ^ 0x63
SB = [aes_sb(x) for x in range(256)]
assert SB[0] == 0x63 and SB[0x53] == 0xed
# T1 (+ c1 in pre_lo), T2 y + c2 and T1^-1 as nibble tables (src/arm/sm4_armv8ce.c)
pre_lo = [0x3e, 0xb2, 0x0e, 0x82, 0xbb, 0x37, 0x8b, 0x07, 0xa1, 0x2d, 0x91, 0x1d, 0x24, 0xa8, 0x14, 0x98]
t1_lo = [0x00, 0x8c, 0x30, 0xbc, 0x85, 0x09, 0xb5, 0x39, 0x9f, 0x13, 0xaf, 0x23, 0x1a, 0x96, 0x2a, 0xa6]
t1_hi = [0x00, 0xdc, 0x2e, 0xf2, 0xc5, 0x19, 0xeb, 0x37, 0x08, 0xd4, 0x26, 0xfa, 0xcd, 0x11, 0xe3, 0x3f]
post_lo = [0x6c, 0xd4, 0xa6, 0x1e, 0x52, 0xea, 0x98, 0x20, 0x0b, 0xb3, 0xc1, 0x79, 0x35, 0x8d, 0xff, 0x47]
post_hi = [0x00, 0xe0, 0x50, 0xb0, 0x9d, 0x7d, 0xcd, 0x2d, 0xc0, 0x20, 0x90, 0x70, 0x5d, 0xbd, 0x0d, 0xed]
t1inv_lo = [0x00, 0x85, 0xd9, 0x5c, 0x2e, 0xab, 0xf7, 0x72, 0x80, 0x05, 0x59, 0xdc, 0xae, 0x2b, 0x77, 0xf2]
t1inv_hi = [0x00, 0x55, 0x57, 0x02, 0x44, 0x11, 0x13, 0x46, 0xaf, 0xfa, 0xf8, 0xad, 0xeb, 0xbe, 0xbc, 0xe9]
T1 = lambda x: t1_lo[x & 15] ^ t1_hi[x >> 4]
C1 = pre_lo[0] ^ t1_lo[0]
T1inv = lambda x: t1inv_lo[x & 15] ^ t1inv_hi[x >> 4]
POST = lambda y: post_lo[y & 15] ^ post_hi[y >> 4]
for x in range(256):
    assert SM4S[x] == POST(SB[T1(x) ^ C1]), x
    assert T1inv(T1(x)) == x
def rotl(w, n): return ((w << n) | (w >> (32 - n))) & 0xffffffff
def L(b): return b ^ rotl(b, 2) ^ rotl(b, 10) ^ rotl(b, 18) ^ rotl(b, 24)
def tau(w): return int.from_bytes(bytes(SM4S[x] for x in w.to_bytes(4, 'big')), 'big')
FK = [0xa3b1bac6, 0x56aa3350, 0x677d9197, 0xb27022dc]
CK = [int.from_bytes(bytes(((4 * i + j) * 7) & 0xff for j in range(4)), 'big') for i in range(32)]
def sm4_rk(key):
    k = [int.from_bytes(key[4*i:4*i+4], 'big') ^ FK[i] for i in range(4)]
    rk = []
    for i in range(32):
        t = tau(k[(i+1) % 4] ^ k[(i+2) % 4] ^ k[(i+3) % 4] ^ CK[i])
        k[i % 4] ^= t ^ rotl(t, 13) ^ rotl(t, 23)
        rk.append(k[i % 4])
    return rk
def sm4_enc(rk, blk):
    x = [int.from_bytes(blk[4*i:4*i+4], 'big') for i in range(4)]
    for i in range(32):
        x.append(x[i] ^ L(tau(x[i+1] ^ x[i+2] ^ x[i+3] ^ rk[i])))
    return b''.join(w.to_bytes(4, 'big') for w in x[35:31:-1])
key = bytes.fromhex('0123456789abcdeffedcba9876543210')
assert sm4_enc(sm4_rk(key), key).hex() == '681edf34d206965e86b3e94f536e4246'

# M(y) = T1(L(T2 y + c2)) bytewise-T1, on a word of AES S-box outputs y (big-endian bytes)
def M(ybytes):
    s = int.from_bytes(bytes(POST(v) for v in ybytes), 'big')
    return bytes(T1(v) for v in L(s).to_bytes(4, 'big'))
const = M(bytes(4))
assert len(set(const)) == 1
# linear contributions: byte c of output from input byte j
def Mlin(j, v):
    yb = bytearray(4); yb[j] = v
    return bytes(a ^ b for a, b in zip(M(bytes(yb)), const))
# circulant check: block (c, j) depends on d = c - j mod 4
blk = {}
for d in range(4):
    for c in range(4):
        j = (c - d) % 4
        tab = [Mlin(j, v)[c] for v in range(256)]
        if d in blk: assert blk[d] == tab, (d, c)
        else: blk[d] = tab
# linearity check on nibbles
for d in range(4):
    for v in range(256):
        assert blk[d][v] == blk[d][v & 15] ^ blk[d][v & 0xf0]
MCW = [2, 3, 1, 1]                               # row 0 of MixColumns: 2 a0 + 3 a1 + a2 + a3
inv = {m: ginv(m, 0x11b) for m in (1, 2, 3)}
rowsA = [(0, 0), (0, 1), (1, 0), (1, 1)]         # (d, nibble: 0 lo, 1 hi) of rows 0..3 of A
rowsB = [((d + 2) % 4, h) for d, h in rowsA]
def table(d, h, r, with_const):
    return [gmul(inv[MCW[r]], blk[d][n << (4 * h)] ^ (const[0] if with_const else 0), 0x11b) for n in range(16)]
ga = [table(d, h, r, r == 0) for r, (d, h) in enumerate(rowsA)]
gb = [table(d, h, r, False) for r, (d, h) in enumerate(rowsB)]
perm = [0] * 16; shift = [0] * 16; sub = [0] * 16
for c in range(4):
    for r, (d, h) in enumerate(rowsA):
        perm[4 * c + r] = 4 * ((c - d) % 4)
        shift[4 * c + r] = -4 if h else 0
        sub[4 * c + r] = r
# distribution (transpose) and gather indices
D = [4 * (p % 4) + p // 4 for p in range(16)]    # D[4c + r] = 4r + c
G = [16 * (3 - (p // 4)) + 4 * (p % 4) for p in range(16)]  # out byte 4k+c <- Z_{35-k}[4c]

# ---- the NEON code, byte by byte (AES column c = bytes 4c..4c+3, row r = byte 4c + r)
def tbl(tab, idx): return bytes(tab[i] if i < len(tab) else 0 for i in idx)
def ushl(v, s): return bytes(((x << k) & 0xff) if k >= 0 else (x >> -k) for x, k in zip(v, s))
def sli4(d, n): return bytes(((b << 4) & 0xff) | (a & 0x0f) for a, b in zip(d, n))
def ext(a, b, n): return (a + b)[n:n + 16]
def xor(a, b): return bytes(x ^ y for x, y in zip(a, b))
def aese(v, k):
    s = [SB[x] for x in xor(v, k)]
    return bytes(s[4 * ((p // 4 + p % 4) % 4) + p % 4] for p in range(16))
def aesmc(v):
    out = bytearray(16)
    for c in range(4):
        a = v[4 * c:4 * c + 4]
        for r in range(4):
            out[4 * c + r] = gmul(2, a[r], 0x11b) ^ gmul(3, a[(r + 1) % 4], 0x11b) ^ a[(r + 2) % 4] ^ a[(r + 3) % 4]
    return bytes(out)
gat = sum(ga, []); gbt = sum(gb, [])
def zb_of(blk): return bytes(T1(x) for x in blk)
def blk_of(zb): return bytes(T1inv(x) for x in zb)
def keyreg(rkw):
    b = rkw.to_bytes(4, 'big')
    return bytes(T1(b[p // 4]) ^ C1 for p in range(16))
def core(zb, keys):
    t = tbl(zb, D)
    Z = [t, ext(t, t, 1), ext(t, t, 2), ext(t, t, 3)]
    for i in range(32):
        y = aese(xor(xor(Z[i + 1], Z[i + 2]), Z[i + 3]), keys[i])
        ia = sli4(ushl(tbl(y, perm), shift), sub)
        ib = ext(ia, ia, 8)
        w = xor(tbl(gat, ia), tbl(gbt, ib))
        Z.append(xor(Z[i], aesmc(w)))
    return tbl(Z[32] + Z[33] + Z[34] + Z[35], G)
import os
for trial in range(20):
    k = os.urandom(16) if trial else key
    p = os.urandom(16) if trial else key
    rk = sm4_rk(k)
    keys = [keyreg(w) for w in rk]
    assert blk_of(core(zb_of(p), keys)) == sm4_enc(rk, p), trial

# ---- why the blocks need lookups (docs/PERFORMANCE.md's lower bound, item 2)
def columns(f): return [f(1 << i) for i in range(8)]
def mat_mul(a, b): return [matvec(a, col) for col in b]
def mat_inv(a):
    rows = [[(a[j] >> i) & 1 for j in range(8)] + [int(k == i) for k in range(8)] for i in range(8)]
    for c in range(8):
        p = next((r for r in range(c, 8) if rows[r][c]), None)
        if p is None: return None
        rows[c], rows[p] = rows[p], rows[c]
        for r in range(8):
            if r != c and rows[r][c]: rows[r] = [x ^ y for x, y in zip(rows[r], rows[c])]
    return [sum(rows[i][8 + j] << i for i in range(8)) for j in range(8)]
for d in range(4):
    cols = columns(lambda v: blk[d][v])
    bits = [[(cols[j] >> i) & 1 for j in range(8)] for i in range(8)]
    assert any(cols)
    assert not all(bits[i][j] == bits[i + 1][j + 1] for i in range(7) for j in range(7)), d   # not Toeplitz (PMULL)
    assert not any(all(gmul(a, v, 0x11b) == blk[d][v] for v in range(256)) for a in range(256)), d  # not AESMC's
# Nor is L itself MixColumns between bytewise maps, in any byte order: L = P MC Q (P, Q bytewise)
# would make each weight-2/3 block of L, between the P and Q its weight-1 blocks fix, similar to
# multiplication by 2 or 3 in GF(2^8).
def l_block(k, j): return [(L(1 << (8 * j + i)) >> (8 * k)) & 0xff for i in range(8)]
def kills(poly, a):
    acc, pw = [0] * 8, [1 << i for i in range(8)]
    for i in range(9):
        if poly >> i & 1: acc = [x ^ y for x, y in zip(acc, pw)]
        pw = mat_mul(a, pw)
    return not any(acc)
minpoly = {m: next(p for p in range(256, 512) if kills(p, columns(lambda v, m=m: gmul(m, v, 0x11b)))) for m in (2, 3)}
import itertools
for order in itertools.permutations(range(4)):
    lb = lambda k, j: l_block(order[k], order[j])
    P = {0: [1 << i for i in range(8)]}
    for _ in range(4):
        for k in list(P):
            for t in (2, 3):
                for tt in (2, 3):
                    k2, j = (k + t - tt) % 4, (k + t) % 4
                    if k2 not in P and mat_inv(lb(k, j)):
                        P[k2] = mat_mul(mat_mul(lb(k2, j), mat_inv(lb(k, j))), P[k])
    if len(P) < 4: continue
    Q = {j: mat_mul(mat_inv(P[(j - 2) % 4]), lb((j - 2) % 4, j)) for j in range(4)}
    if any(mat_mul(mat_inv(P[(j - 3) % 4]), lb((j - 3) % 4, j)) != Q[j] for j in range(4)): continue
    assert not all(kills(minpoly[(2, 3)[t]], mat_mul(mat_mul(mat_inv(P[k]), lb(k, (k + t) % 4)), mat_inv(Q[(k + t) % 4])))
                   for k in range(4) for t in range(2)), order
print("/* M's blocks: not Toeplitz, not GF(2^8) multiples; L: not MixColumns between bytewise maps */")
print("/* tools/sm4_z_tables.py: the one-block round checked against SM4 (20 blocks) */")
row = lambda v, fmt: '{' + ', '.join(fmt % x for x in v) + '}'
print('static const uint8_t m_tables[8][16] = {')
for t in ga + gb:
    print('    %s,' % row(t, '0x%02x'))
print('};')
for name, typ, v in (('m_gather', 'uint8_t', perm), ('m_shift', 'int8_t', shift), ('m_sub', 'uint8_t', sub),
                     ('z_transpose', 'uint8_t', D), ('z_out', 'uint8_t', G)):
    print('static const %s %s[16] = %s;' % (typ, name, row(v, '%d')))
