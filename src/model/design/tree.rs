//! Trees (the MongoDB manual's "Model Tree Structures"): a self one-to-many relationship laid
//! out by one of the five tree strategies, and the shape of the tree its model describes.
//!
//! The relationship's cardinality is the fan-out of an inner node (how many children a node
//! that has children has, its mean rounded, at least 2), and the entity's count is the number
//! of nodes. The tree is the complete tree of that fan-out filled level by level (breadth
//! first): node 0 is the root, the children of node `i` are `i·f + 1 … i·f + f`, and the depth
//! (levels below the root) follows from the count. Every figure of a tree (a node's parent,
//! depth, ancestors, subtree, its nested-set numbers) is arithmetic on that numbering, so the
//! generated documents, the subjects of the workload and the docs agree.

use super::Strategy;
use crate::model::{Model, Relationship};

/// The smallest fan-out a tree takes (a fan-out of 1 is a list, not a tree).
pub const MIN_FAN_OUT: u64 = 2;

impl Strategy {
    /// Returns true for the five tree strategies (parent references, child references, array
    /// of ancestors, materialized paths, nested sets): the only ones a tree relationship takes
    /// and that no other relationship may.
    pub fn is_tree(&self) -> bool {
        matches!(
            self,
            Strategy::ParentReferences
                | Strategy::ChildReferences
                | Strategy::ArrayOfAncestors
                | Strategy::MaterializedPaths
                | Strategy::NestedSets
        )
    }
}

/// Returns true when `r` can be a tree: one-to-many from an entity to itself, no feed.
pub fn can_be_tree(r: &Relationship) -> bool {
    r.parent == r.child && !r.many_to_many && r.feed.is_none()
}

/// Returns true when `r` is a tree relationship: it can be a tree ([`can_be_tree`]) and a
/// tree step of the workload (a subtree, ancestors, children; insert a node; move a
/// subtree) names it. Such a relationship takes a tree strategy under every named design.
pub fn is_tree_relationship(model: &Model, r: &Relationship) -> bool {
    can_be_tree(r)
        && model
            .workload
            .iter()
            .flat_map(|u| &u.steps)
            .any(|s| s.op().is_tree() && s.relationship() == Some(r.name.as_str()))
}

/// The complete tree of `count` nodes with `fan_out` children per inner node, numbered
/// breadth first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tree {
    /// Nodes in the tree.
    pub count: u64,
    /// Children of every inner node (the last inner node may have fewer).
    pub fan_out: u64,
}

impl Tree {
    /// Returns the tree of a relationship whose parent entity has `count` nodes: the fan-out
    /// is the cardinality's mean, rounded, at least [`MIN_FAN_OUT`].
    pub fn of(r: &Relationship, count: u64) -> Tree {
        let f = libm::round(r.cardinality.mean()).max(MIN_FAN_OUT as f64) as u64;
        Tree { count, fan_out: f }
    }

    /// Returns the parent of node `i` (none for the root).
    pub fn parent(&self, i: u64) -> Option<u64> {
        i.checked_sub(1).map(|p| p / self.fan_out)
    }

    /// Returns the children of node `i`, in order.
    pub fn children(&self, i: u64) -> std::ops::Range<u64> {
        let first = i.saturating_mul(self.fan_out).saturating_add(1);
        let end = first.saturating_add(self.fan_out).min(self.count);
        first.min(end)..end
    }

    /// Returns the ancestors of node `i`, root first (empty for the root).
    pub fn ancestors(&self, i: u64) -> Vec<u64> {
        let mut out = Vec::new();
        let mut at = i;
        while let Some(p) = self.parent(at) {
            out.push(p);
            at = p;
        }
        out.reverse();
        out
    }

    /// Returns how many levels below the root node `i` is.
    pub fn depth_of(&self, i: u64) -> u64 {
        self.ancestors(i).len() as u64
    }

    /// Returns the levels below the root (0 for a tree of one node).
    pub fn depth(&self) -> u64 {
        self.depth_of(self.count.saturating_sub(1))
    }

    /// Returns the first node and the number of nodes of level `d` (0: the root).
    pub fn level(&self, d: u64) -> (u64, u64) {
        let mut first = 0u64;
        let mut width = 1u64;
        for _ in 0..d {
            first = first.saturating_add(width);
            width = width.saturating_mul(self.fan_out);
        }
        let n = width.min(self.count.saturating_sub(first));
        (first, n)
    }

    /// Returns the number of nodes in the subtree of `i` (itself included).
    pub fn subtree_size(&self, i: u64) -> u64 {
        let mut total = 0u64;
        let (mut lo, mut hi) = (i, i.saturating_add(1));
        while lo < self.count && lo < hi {
            total = total.saturating_add(hi.min(self.count) - lo);
            lo = lo.saturating_mul(self.fan_out).saturating_add(1);
            hi = hi
                .saturating_sub(1)
                .saturating_mul(self.fan_out)
                .saturating_add(self.fan_out)
                .saturating_add(1);
        }
        total
    }

    /// Returns the nested-set numbers (`left`, `right`) of node `i`: a depth-first walk from
    /// 1 that numbers a node when it enters it and when it leaves it.
    pub fn nested(&self, i: u64) -> (u64, u64) {
        let mut left = 1u64;
        let mut path = self.ancestors(i);
        path.push(i);
        for pair in path.windows(2) {
            if let [p, c] = pair {
                left += 1;
                for s in self.children(*p).take_while(|s| s < c) {
                    left += 2 * self.subtree_size(s);
                }
            }
        }
        (left, left + 2 * self.subtree_size(i) - 1)
    }

    /// Returns the node at the middle of level `d` (the root when `d` is 0): about as many
    /// nodes lie to its left as to its right.
    pub fn middle_of_level(&self, d: u64) -> u64 {
        let (first, n) = self.level(d);
        first + n / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(count: u64, fan_out: u64) -> Tree {
        Tree { count, fan_out }
    }

    #[test]
    fn a_complete_tree_numbers_levels_and_subtrees() {
        let t = tree(1 + 3 + 9 + 27, 3);
        assert_eq!(t.depth(), 3);
        assert_eq!(t.level(2), (4, 9));
        assert_eq!(t.parent(4), Some(1));
        assert_eq!(t.children(1), 4..7);
        assert_eq!(t.ancestors(13), vec![0, 1, 4]);
        assert_eq!(t.subtree_size(0), 40);
        assert_eq!(t.subtree_size(1), 13);
        assert_eq!(t.subtree_size(13), 1);
    }

    #[test]
    fn nested_sets_nest_and_number_every_node_twice() {
        let t = tree(30, 3);
        let mut seen = Vec::new();
        for i in 0..t.count {
            let (l, r) = t.nested(i);
            seen.push(l);
            seen.push(r);
            assert_eq!(r - l + 1, 2 * t.subtree_size(i));
            if let Some(p) = t.parent(i) {
                let (pl, pr) = t.nested(p);
                assert!(pl < l && r < pr, "node {i} inside its parent {p}");
            }
        }
        seen.sort_unstable();
        assert_eq!(seen, (1..=60).collect::<Vec<_>>());
        assert_eq!(t.nested(0), (1, 60));
    }

    #[test]
    fn a_tree_of_a_billion_nodes_is_a_few_levels() {
        let t = tree(1_000_000_000, 8);
        assert_eq!(t.depth(), 10);
        assert_eq!(t.level(10).0, 153_391_689);
        assert_eq!(t.subtree_size(0), 1_000_000_000);
        assert_eq!(t.nested(0), (1, 2_000_000_000));
    }

    #[test]
    fn a_truncated_last_level_counts_only_its_nodes() {
        let t = tree(6, 2);
        assert_eq!(t.children(2), 5..6);
        assert_eq!(t.children(3), 6..6);
        assert_eq!(t.subtree_size(2), 2);
        assert_eq!(t.level(2), (3, 3));
    }
}
