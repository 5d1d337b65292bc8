//! [`Value`] and the [`Map`] of its objects — one recursive type, so one file — and the map: an
//! object's members in the order the reply wrote them, in one vector. Small objects (most of
//! a model's: a step, an argument list) are searched in place; past [`INDEXED_FROM`] members a
//! hash index is kept beside them, so a hostile object with many keys stays linear to build.

use super::number::Number;
use hashbrown::HashTable;

/// Any JSON value.
///
/// ```
/// let parsed = llmjson::parse("{b: 1.50, a: [true, None]}", &Default::default())?;
/// let value = parsed.value;
/// assert_eq!(value["b"], 1.5);
/// assert_eq!(value["a"][1], llmjson::Value::Null);
/// assert_eq!(value.to_string(), r#"{"b":1.50,"a":[true,null]}"#);
/// # Ok::<(), llmjson::Error>(())
/// ```
#[derive(Clone, Default)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number with its exact digits.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, keys in written order.
    Object(Map),
}

pub(crate) static NULL: Value = Value::Null;

/// From this many members on, lookups go through a hash index.
const INDEXED_FROM: usize = 12;

/// Keys drawn once per process: a reply cannot choose colliding keys without knowing them.
static KEYS: std::sync::OnceLock<ahash::RandomState> = std::sync::OnceLock::new();

fn hash_of(key: &str) -> u64 {
    KEYS.get_or_init(ahash::RandomState::new).hash_one(key)
}

/// A JSON object's members, in the order they were written.
#[derive(Clone, Default)]
pub struct Map {
    entries: Vec<(String, Value)>,
    /// Positions in `entries` by key hash; present once the map has [`INDEXED_FROM`] members.
    index: Option<Box<HashTable<usize>>>,
}

impl Map {
    /// An empty map.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty map with room for `n` members.
    pub fn with_capacity(n: usize) -> Map {
        Map {
            entries: Vec::with_capacity(n),
            index: None,
        }
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No members.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The position of `key` (in written order).
    pub fn get_index_of(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index
                .find(hash_of(key), |&i| self.entries[i].0 == key)
                .copied(),
            None => self.entries.iter().position(|(k, _)| k == key),
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.get_index_of(key).map(|i| &self.entries[i].1)
    }

    /// The value of `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        let i = self.get_index_of(key)?;
        Some(&mut self.entries[i].1)
    }

    /// The key as stored and its value.
    pub fn get_key_value(&self, key: &str) -> Option<(&String, &Value)> {
        self.get_index(self.get_index_of(key)?)
    }

    /// The member at position `index` (in written order).
    pub fn get_index(&self, index: usize) -> Option<(&String, &Value)> {
        self.entries.get(index).map(|(k, v)| (k, v))
    }

    /// The member at position `index`, its value mutable.
    pub fn get_index_mut(&mut self, index: usize) -> Option<(&String, &mut Value)> {
        self.entries.get_mut(index).map(|(k, v)| (&*k, v))
    }

    /// Removes the last member written (constant time: a stream's view takes back what it
    /// showed last).
    pub fn pop(&mut self) -> Option<(String, Value)> {
        let (key, value) = self.entries.pop()?;
        let at = self.entries.len();
        if at < INDEXED_FROM {
            self.index = None;
        } else if let Some(index) = &mut self.index {
            if let Ok(entry) = index.find_entry(hash_of(&key), |&i| i == at) {
                entry.remove();
            }
        }
        Some((key, value))
    }

    /// Keeps the first `len` members.
    pub fn truncate(&mut self, len: usize) {
        while self.entries.len() > len {
            self.pop();
        }
    }

    /// Whether `key` is a member.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get_index_of(key).is_some()
    }

    /// Sets `key` to `value`. A new key goes last; an existing key keeps its place and its old
    /// value is returned.
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        match self.get_index_of(&key) {
            Some(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            None => {
                self.push(key, value);
                None
            }
        }
    }

    /// [`Map::insert`], returning where the member is.
    pub fn insert_full(&mut self, key: String, value: Value) -> (usize, Option<Value>) {
        match self.get_index_of(&key) {
            Some(i) => (i, Some(std::mem::replace(&mut self.entries[i].1, value))),
            None => (self.push(key, value), None),
        }
    }

    /// Appends a member known to be new.
    fn push(&mut self, key: String, value: Value) -> usize {
        let at = self.entries.len();
        if let Some(index) = &mut self.index {
            let entries = &self.entries;
            index.insert_unique(hash_of(&key), at, |&i| hash_of(&entries[i].0));
        }
        self.entries.push((key, value));
        if self.index.is_none() && self.entries.len() >= INDEXED_FROM {
            self.reindex();
        }
        at
    }

    /// Rebuilds the index from the entries (after a removal shifted positions).
    fn reindex(&mut self) {
        if self.entries.len() < INDEXED_FROM {
            self.index = None;
            return;
        }
        let mut table = HashTable::with_capacity(self.entries.len());
        for (i, (key, _)) in self.entries.iter().enumerate() {
            let entries = &self.entries;
            table.insert_unique(hash_of(key), i, |&j| hash_of(&entries[j].0));
        }
        self.index = Some(Box::new(table));
    }

    /// Removes `key`, keeping the order of the others (linear in the map's size).
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let i = self.get_index_of(key)?;
        let (_, value) = self.entries.remove(i);
        if self.index.is_some() {
            self.reindex();
        }
        Some(value)
    }

    /// Keeps the members for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&String, &mut Value) -> bool) {
        let before = self.entries.len();
        self.entries.retain_mut(|(k, v)| keep(k, v));
        if self.entries.len() != before && self.index.is_some() {
            self.reindex();
        }
    }

    /// The members in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.entries.iter())
    }

    /// The members in order, values mutable.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut(self.entries.iter_mut())
    }

    /// The keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &String> + DoubleEndedIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> + DoubleEndedIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The values in order, mutable.
    pub fn values_mut(
        &mut self,
    ) -> impl ExactSizeIterator<Item = &mut Value> + DoubleEndedIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// The entry for `key`, to read or fill in one lookup.
    pub fn entry(&mut self, key: String) -> Entry<'_> {
        match self.get_index_of(&key) {
            Some(index) => Entry::Occupied(OccupiedEntry { map: self, index }),
            None => Entry::Vacant(VacantEntry { map: self, key }),
        }
    }
}

/// A member's slot, from [`Map::entry`].
pub enum Entry<'a> {
    /// The key is a member.
    Occupied(OccupiedEntry<'a>),
    /// The key is not a member.
    Vacant(VacantEntry<'a>),
}

/// An existing member.
pub struct OccupiedEntry<'a> {
    map: &'a mut Map,
    index: usize,
}

/// A key that is not a member yet.
pub struct VacantEntry<'a> {
    map: &'a mut Map,
    key: String,
}

impl<'a> OccupiedEntry<'a> {
    /// The member's key.
    pub fn key(&self) -> &String {
        &self.map.entries[self.index].0
    }
    /// The member's value.
    pub fn get(&self) -> &Value {
        &self.map.entries[self.index].1
    }
    /// The member's value, mutably.
    pub fn get_mut(&mut self) -> &mut Value {
        &mut self.map.entries[self.index].1
    }
    /// Replaces the value in place (the member keeps its position); returns the old one.
    pub fn insert(&mut self, value: Value) -> Value {
        std::mem::replace(self.get_mut(), value)
    }
    /// The member's value, for the entry's lifetime.
    pub fn into_mut(self) -> &'a mut Value {
        &mut self.map.entries[self.index].1
    }
}

impl<'a> VacantEntry<'a> {
    /// Adds the member last.
    pub fn insert(self, value: Value) -> &'a mut Value {
        let at = self.map.push(self.key, value);
        &mut self.map.entries[at].1
    }
}

impl<'a> Entry<'a> {
    /// The value, inserting `default` first when the key is not a member.
    pub fn or_insert(self, default: Value) -> &'a mut Value {
        match self {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(default),
        }
    }
}

/// The members of a [`Map`] in order.
pub struct Iter<'a>(std::slice::Iter<'a, (String, Value)>);
/// The members of a [`Map`] in order, values mutable.
pub struct IterMut<'a>(std::slice::IterMut<'a, (String, Value)>);
/// The members of a [`Map`] in order, owned.
pub struct IntoIter(std::vec::IntoIter<(String, Value)>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a String, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}
impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}
impl ExactSizeIterator for Iter<'_> {}

impl<'a> Iterator for IterMut<'a> {
    type Item = (&'a String, &'a mut Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (&*k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl Iterator for IntoIter {
    type Item = (String, Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}
impl DoubleEndedIterator for IntoIter {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back()
    }
}
impl ExactSizeIterator for IntoIter {}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = IntoIter;
    fn into_iter(self) -> IntoIter {
        IntoIter(self.entries.into_iter())
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a String, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Map {
    type Item = (&'a String, &'a mut Value);
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

impl FromIterator<(String, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Map {
        let mut map = Map::new();
        map.extend(iter);
        map
    }
}

impl Extend<(String, Value)> for Map {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl PartialEq for Map {
    /// The same members, whatever their order (as serde_json compares objects).
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl std::ops::Index<&str> for Map {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Op {
        Insert(u8, u8),
        Remove(u8),
        Retain(u8),
        Entry(u8, u8),
    }

    fn op() -> impl Strategy<Value = Op> {
        // Keys from a small alphabet repeat often; enough of them to cross the index threshold.
        prop_oneof![
            4 => (0..40u8, any::<u8>()).prop_map(|(k, v)| Op::Insert(k, v)),
            1 => (0..40u8).prop_map(Op::Remove),
            1 => (1..5u8).prop_map(Op::Retain),
            2 => (0..40u8, any::<u8>()).prop_map(|(k, v)| Op::Entry(k, v)),
        ]
    }

    proptest! {
        /// The map behaves as an insertion-ordered map (indexmap's shift semantics are the
        /// model) across the index threshold, in both directions.
        #[test]
        fn behaves_like_an_ordered_map(ops in prop::collection::vec(op(), 0..200)) {
            let mut ours = Map::new();
            let mut model: indexmap::IndexMap<String, u8> = indexmap::IndexMap::new();
            for op in ops {
                match op {
                    Op::Insert(k, v) => {
                        let old = ours.insert(format!("k{k}"), Value::from(v));
                        let old_model = model.insert(format!("k{k}"), v);
                        prop_assert_eq!(old.is_some(), old_model.is_some());
                    }
                    Op::Remove(k) => {
                        let gone = ours.remove(&format!("k{k}"));
                        prop_assert_eq!(gone.is_some(), model.shift_remove(&format!("k{k}")).is_some());
                    }
                    Op::Retain(m) => {
                        ours.retain(|k, _| k.len() % usize::from(m) != 0);
                        model.retain(|k, _| k.len() % usize::from(m) != 0);
                    }
                    Op::Entry(k, v) => {
                        let slot = ours.entry(format!("k{k}")).or_insert(Value::from(v));
                        *slot = Value::from(v);
                        model.insert(format!("k{k}"), v);
                    }
                }
                prop_assert_eq!(ours.len(), model.len());
                for (i, (k, v)) in model.iter().enumerate() {
                    prop_assert_eq!(ours.get_index_of(k), Some(i));
                    prop_assert_eq!(ours.get(k), Some(&Value::from(*v)));
                    prop_assert_eq!(ours.get_index(i).map(|(k, _)| k.as_str()), Some(k.as_str()));
                }
                prop_assert!(!ours.contains_key("absent"));
            }
        }
    }

    #[test]
    fn many_distinct_keys_stay_linear_to_build() {
        // 200,000 members: quadratic lookups would take minutes.
        let map: Map = (0..200_000)
            .map(|i| (format!("key{i}"), Value::from(i)))
            .collect();
        assert_eq!(map.len(), 200_000);
        assert_eq!(map.get("key199999"), Some(&Value::from(199_999)));
    }
}
