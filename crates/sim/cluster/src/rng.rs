//! A tiny seeded PCG32 generator: every jitter and every generated name in the simulation
//! comes from one of these, so a seed replays a run exactly. Also [`hex_id`], for identifiers
//! that must look random but follow from what they name. Knows nothing of the cluster.

/// PCG-XSH-RR 32-bit output, 64-bit state (O'Neill 2014).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rng {
    state: u64,
    inc: u64,
}

const MULT: u64 = 6_364_136_223_846_793_005;

impl Rng {
    /// A generator for `seed` on stream `stream` (different streams never correlate).
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut r = Rng {
            state: 0,
            inc: (stream << 1) | 1,
        };
        r.next_u32();
        r.state = r.state.wrapping_add(seed);
        r.next_u32();
        r
    }

    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(MULT).wrapping_add(self.inc);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// Uniform in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        let hi = u64::from(self.next_u32()) << 21;
        let lo = u64::from(self.next_u32()) >> 11;
        ((hi | lo) as f64) / ((1u64 << 53) as f64)
    }

    /// Uniform in `[0, n)`; 0 when `n == 0`.
    pub fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        // Rejection sampling keeps it unbiased.
        let threshold = n.wrapping_neg() % n;
        loop {
            let r = self.next_u32();
            if r >= threshold {
                return r % n;
            }
        }
    }
}

/// `2 * words` lowercase hex digits that follow from `name` alone: for identifiers a real
/// system draws at random — container IDs, machine IDs — where a draw from the simulation's
/// generator would change every name made after it.
pub fn hex_id(name: &str, words: u8) -> String {
    (0..words)
        .map(|part| format!("{:016x}", hash64(name, part)))
        .collect()
}

/// A version-4 UUID that follows from `name` alone (see [`hex_id`]).
pub fn uuid_of(name: &str) -> String {
    uuid_v4((u128::from(hash64(name, 0)) << 64) | u128::from(hash64(name, 1)))
}

/// 128 random bits as an RFC 4122 version-4 UUID: the version nibble set to 4 and the variant's
/// two top bits to 10 (so its group starts with 8, 9, a or b), the other 122 bits kept.
pub fn uuid_v4(bits: u128) -> String {
    let v = (bits & !(0xf << 76) & !(0x3 << 62)) | (0x4 << 76) | (0x2 << 62);
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        v >> 96,
        (v >> 80) & 0xffff,
        (v >> 64) & 0xffff,
        (v >> 48) & 0xffff,
        v & 0xffff_ffff_ffff
    )
}

/// FNV-1a over `name/part`, mixed by splitmix64's finaliser (parts differ only in their last
/// bytes).
fn hash64(name: &str, part: u8) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes().chain(format!("/{part}").bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_other_seed_other_sequence() {
        let a: Vec<u32> = {
            let mut r = Rng::new(7, 1);
            (0..8).map(|_| r.next_u32()).collect()
        };
        let b: Vec<u32> = {
            let mut r = Rng::new(7, 1);
            (0..8).map(|_| r.next_u32()).collect()
        };
        let c: Vec<u32> = {
            let mut r = Rng::new(8, 1);
            (0..8).map(|_| r.next_u32()).collect()
        };
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn floats_stay_in_unit_interval() {
        let mut r = Rng::new(1, 2);
        for _ in 0..10_000 {
            let x = r.next_f64();
            assert!((0.0..1.0).contains(&x));
            assert!(r.below(27) < 27);
        }
    }

    /// The store's uids came from this formula before `uuid_v4` served it: the same 128 bits
    /// give the same uid, so replays keep their uids.
    #[test]
    fn uuid_v4_is_the_stores_former_formula() {
        let mut r = Rng::new(3, 9);
        for _ in 0..1_000 {
            let (a, b, c, d) = (r.next_u32(), r.next_u32(), r.next_u32(), r.next_u32());
            let former = format!(
                "{a:08x}-{:04x}-4{:03x}-{:04x}-{:04x}{d:08x}",
                b >> 16,
                b & 0xfff,
                ((c >> 16) & 0x3fff) | 0x8000,
                c & 0xffff
            );
            let bits = (u128::from(a) << 96)
                | (u128::from(b) << 64)
                | (u128::from(c) << 32)
                | u128::from(d);
            assert_eq!(uuid_v4(bits), former);
        }
        let u = uuid_of("machine/worker");
        assert_eq!(u, uuid_of("machine/worker"));
        assert_ne!(u, uuid_of("machine/worker2"));
    }
}
