//! Go's map iteration order, where upstream's outcome depends on it (R-SIM-1, R-MAN-8).
//!
//! Upstream ranges over Go maps, whose iteration order is randomised on every `range`: the
//! node lister's `List` (client-go's `threadSafeMap.List` ranges over its items, so `manage`
//! visits the nodes, and creates on the first `BurstReplicas` of them, in a random order),
//! `getUnscheduledPodsWithoutNode` and `rollingUpdate` (both range over `nodeToDaemonPods`:
//! which available old pods become the `maxUnavailable` deletions, which nodes the `maxSurge`
//! creations). Counts never depend on it; identities do.
//!
//! The controller stays sans-IO and owns no generator: the driver hands it a [`MapOrder`] per
//! sync (`Client::map_order`), and each visiting order is a pure function of that value, the
//! place it is used at ([`Site`]) and the number of items. A driver that derives the seed from
//! its own seeded generator replays a run exactly; a test harness keeps the listing order.

/// How the controller orders what upstream iterates as a Go map, for one sync.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MapOrder {
    /// The listers' order (node name): a fixed order, for replaying upstream's unit cases,
    /// which assert nothing that depends on it.
    #[default]
    Listed,
    /// A random order from this seed, drawn anew at each site, as each `range` over a Go map
    /// starts at a random place.
    Seeded(u64),
}

/// Where upstream iterates a Go map whose order shows in the outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Site {
    /// `syncDaemonSet`'s `nodeLister.List`: the order `manage` calls `podsShouldBeOnNode`.
    NodeList,
    /// `getUnscheduledPodsWithoutNode`: `range nodeToDaemonPods`.
    UnscheduledPodsWithoutNode,
    /// `rollingUpdate`: `range nodeToDaemonPods` (with the empty entries of desired nodes).
    RollingUpdate,
    /// `podsShouldBeOnNode`'s `range daemonPods`: one node's pods, in the pod lister's (Go
    /// map) order, which decides the order of its FailedDaemonPod events and deletions.
    PodsOnNode,
}

impl Site {
    fn salt(self) -> u64 {
        match self {
            Site::NodeList => 0x6e6f_6465_6c69_7374,
            Site::UnscheduledPodsWithoutNode => 0x756e_7363_6865_6475,
            Site::RollingUpdate => 0x726f_6c6c_696e_6775,
            Site::PodsOnNode => 0x706f_6473_6f6e_6e6f,
        }
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a stateless step from one 64-bit value to the next.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl MapOrder {
    /// Whether items keep their listed order.
    pub fn is_listed(self) -> bool {
        self == MapOrder::Listed
    }

    /// The order to visit `n` listed items in at `site`: a permutation of `0..n` (the
    /// identity when `Listed`).
    pub fn permutation(self, site: Site, n: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..n).collect();
        self.shuffle(site, &mut order);
        order
    }

    /// Reorders `items` as [`permutation`](Self::permutation) would visit them.
    pub fn shuffle<T>(self, site: Site, items: &mut [T]) {
        self.shuffle_keyed(site, 0, items);
    }

    /// The order to visit the `n` items of one entry of a map of lists (`key` names the
    /// entry, e.g. a node), each entry drawn independently, as a list built from a Go map's
    /// `range` is. The identity for fewer than two items, without allocating.
    pub fn visit_keyed(self, site: Site, key: &str, n: usize) -> Visit {
        if n < 2 || self.is_listed() {
            return Visit::Listed(0..n);
        }
        // FNV-1a of the key: a stable per-entry stream.
        let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        let mut order: Vec<usize> = (0..n).collect();
        self.shuffle_keyed(site, hash, &mut order);
        Visit::Shuffled(order.into_iter())
    }

    fn shuffle_keyed<T>(self, site: Site, key: u64, items: &mut [T]) {
        let MapOrder::Seeded(seed) = self else {
            return;
        };
        let mut state = seed ^ site.salt() ^ key.rotate_left(17);
        // Fisher–Yates, each index from a fresh 64-bit draw (the bias of `% (i + 1)` is below
        // 2^-40 for any list a cluster holds).
        for i in (1..items.len()).rev() {
            let j = (splitmix64(&mut state) % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

/// Indices in the order [`MapOrder::visit_keyed`] visits them.
#[derive(Debug)]
pub enum Visit {
    Listed(std::ops::Range<usize>),
    Shuffled(std::vec::IntoIter<usize>),
}

impl Iterator for Visit {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        match self {
            Visit::Listed(r) => r.next(),
            Visit::Shuffled(it) => it.next(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_keeps_the_listing_order() {
        assert_eq!(
            MapOrder::Listed.permutation(Site::NodeList, 5),
            vec![0, 1, 2, 3, 4]
        );
    }

    #[test]
    fn a_seed_gives_the_same_permutation_every_time_and_another_seed_another() {
        let a = MapOrder::Seeded(7).permutation(Site::NodeList, 50);
        assert_eq!(a, MapOrder::Seeded(7).permutation(Site::NodeList, 50));
        assert_ne!(a, MapOrder::Seeded(8).permutation(Site::NodeList, 50));
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn each_site_draws_its_own_order_as_each_range_over_a_go_map_does() {
        let seed = MapOrder::Seeded(42);
        assert_ne!(
            seed.permutation(Site::NodeList, 50),
            seed.permutation(Site::RollingUpdate, 50)
        );
    }

    #[test]
    fn each_node_of_a_map_of_lists_draws_its_own_order() {
        let seed = MapOrder::Seeded(3);
        let a: Vec<usize> = seed.visit_keyed(Site::PodsOnNode, "worker", 6).collect();
        assert_eq!(
            a,
            seed.visit_keyed(Site::PodsOnNode, "worker", 6)
                .collect::<Vec<_>>()
        );
        let differs = (0..20).any(|i| {
            seed.visit_keyed(Site::PodsOnNode, &format!("worker{i}"), 6)
                .collect::<Vec<_>>()
                != a
        });
        assert!(differs);
        assert_eq!(
            MapOrder::Listed
                .visit_keyed(Site::PodsOnNode, "worker", 3)
                .collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        assert_eq!(
            seed.visit_keyed(Site::PodsOnNode, "w", 1)
                .collect::<Vec<_>>(),
            vec![0]
        );
    }

    #[test]
    fn every_item_can_come_first() {
        let mut first = [0u32; 4];
        for seed in 0..400 {
            first[MapOrder::Seeded(seed).permutation(Site::RollingUpdate, 4)[0]] += 1;
        }
        assert!(first.iter().all(|&n| n > 60), "{first:?}");
    }
}
