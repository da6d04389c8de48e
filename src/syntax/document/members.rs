//! An object's members, indexed by key when there are many.

use super::Member;

/// An object's members in document order (duplicate keys included), with an index by key when
/// there are many, so that looking keys up in a `$defs` of thousands of entries (once for each
/// `$ref` into it) is not a scan each time.
#[derive(Debug, Clone)]
pub struct Members {
    list: Box<[Member]>,
    /// With more than [`Members::INDEXED`] members: their positions, ordered by key, then
    /// position.
    by_key: Option<Box<[u32]>>,
    /// Whether some key occurs twice: found once here, asked by every walk that must skip
    /// shadowed members or report them.
    repeats: bool,
}

impl Members {
    /// Objects with more members than this get an index.
    const INDEXED: usize = 16;

    /// The members, indexed when there are many.
    #[must_use]
    pub fn new(list: Vec<Member>) -> Self {
        let by_key = (list.len() > Self::INDEXED)
            .then(|| {
                let mut order = (0..u32::try_from(list.len()).ok()?).collect::<Vec<u32>>();
                order.sort_by(|&a, &b| list[a as usize].key.cmp(&list[b as usize].key));
                Some(order.into_boxed_slice())
            })
            .flatten();
        let repeats = match &by_key {
            Some(order) => order
                .windows(2)
                .any(|w| list[w[0] as usize].key == list[w[1] as usize].key),
            None => super::repeats(&list),
        };
        Self {
            list: list.into_boxed_slice(),
            by_key,
            repeats,
        }
    }

    /// Whether some key occurs twice among the members.
    #[must_use]
    pub fn repeats(&self) -> bool {
        self.repeats
    }

    /// For each member, whether a later one has the same key; `None` when no key repeats
    /// (known without a look at the keys).
    #[must_use]
    pub fn shadowed(&self) -> Option<Vec<bool>> {
        if self.repeats {
            super::shadowed(&self.list)
        } else {
            None
        }
    }

    /// The last member named `key` (with duplicate keys the last one wins, as in the engines).
    #[must_use]
    pub fn last(&self, key: &str) -> Option<&Member> {
        let Some(order) = &self.by_key else {
            return self.list.iter().rev().find(|m| m.key == key);
        };
        // The sort is stable: the positions of one key are in document order.
        let end = order.partition_point(|&i| self.list[i as usize].key.as_str() <= key);
        let m = &self.list[*order.get(end.checked_sub(1)?)? as usize];
        (m.key == key).then_some(m)
    }

    /// The heap bytes of the members (`each` gives one member's) and of the index.
    pub(super) fn heap_bytes(&self, each: impl Fn(&Member) -> usize) -> usize {
        let index = self
            .by_key
            .as_ref()
            .map_or(0, |o| std::mem::size_of_val(&**o));
        index + self.list.iter().map(each).sum::<usize>()
    }
}

impl std::ops::Deref for Members {
    type Target = [Member];

    fn deref(&self) -> &[Member] {
        &self.list
    }
}

impl<'a> IntoIterator for &'a Members {
    type Item = &'a Member;
    type IntoIter = std::slice::Iter<'a, Member>;

    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

impl PartialEq for Members {
    fn eq(&self, other: &Self) -> bool {
        self.list == other.list
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse, Node, NodeKind};
    use super::Members;
    use std::fmt::Write as _;

    #[test]
    fn the_last_of_duplicate_keys_wins_in_small_and_indexed_objects() {
        for n in [3, Members::INDEXED + 1, 1000] {
            let mut text = String::from("{");
            for i in 0..n {
                let _ = write!(text, "\"k{}\": {i}, ", i % 7);
            }
            text.push_str("\"z\": \"last\"}");
            let root = parse(&text).unwrap();
            assert_eq!(
                root.as_object().unwrap().len(),
                n + 1,
                "{n} members and `z`"
            );
            for k in 0..7.min(n) {
                let last = (0..n).rev().find(|i| i % 7 == k).unwrap();
                assert_eq!(
                    root.get(&format!("k{k}")).map(Node::to_value),
                    Some(serde_json::json!(last)),
                    "k{k} of {n}"
                );
            }
            assert_eq!(root.pointer("/z").and_then(Node::as_str), Some("last"));
            let NodeKind::Object(members) = &root.kind else {
                panic!("an object")
            };
            assert_eq!(members.repeats(), n > 7, "{n} members");
            for missing in ["", "k", "k7", "z0", "a", "~"] {
                assert!(root.get(missing).is_none(), "{missing} in {n}");
            }
        }
    }
}
