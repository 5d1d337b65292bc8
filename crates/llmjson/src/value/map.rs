//! An object: keys in the order the reply wrote them, looked up by hash.

use super::Value;
use indexmap::IndexMap;

type Inner = IndexMap<String, Value, KeyHasher>;

/// The hasher of every map: ahash with keys drawn once per process (a reply cannot choose
/// colliding keys without knowing them), and no per-map state, so a map costs no more than its
/// table (`Value` stays small).
#[derive(Clone, Copy, Default)]
struct KeyHasher;

static KEYS: std::sync::OnceLock<ahash::RandomState> = std::sync::OnceLock::new();

impl std::hash::BuildHasher for KeyHasher {
    type Hasher = ahash::AHasher;
    #[inline]
    fn build_hasher(&self) -> ahash::AHasher {
        KEYS.get_or_init(ahash::RandomState::new).build_hasher()
    }
}

/// A JSON object's members, in the order they were written.
#[derive(Clone, Default, PartialEq)]
pub struct Map {
    inner: Inner,
}

impl Map {
    /// An empty map.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty map with room for `n` members.
    pub fn with_capacity(n: usize) -> Map {
        Map {
            inner: Inner::with_capacity_and_hasher(n, KeyHasher),
        }
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// No members.
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.inner.get(key)
    }

    /// The value of `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.inner.get_mut(key)
    }

    /// The key as stored and its value.
    pub fn get_key_value(&self, key: &str) -> Option<(&String, &Value)> {
        self.inner.get_key_value(key)
    }

    /// The position of `key` (in written order).
    pub fn get_index_of(&self, key: &str) -> Option<usize> {
        self.inner.get_index_of(key)
    }

    /// The member at position `index` (in written order).
    pub fn get_index(&self, index: usize) -> Option<(&String, &Value)> {
        self.inner.get_index(index)
    }

    /// Whether `key` is a member.
    pub fn contains_key(&self, key: &str) -> bool {
        self.inner.contains_key(key)
    }

    /// Sets `key` to `value`. A new key goes last; an existing key keeps its place and its old
    /// value is returned.
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        self.inner.insert(key, value)
    }

    /// Removes `key`, keeping the order of the others.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.inner.shift_remove(key)
    }

    /// Keeps the members for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&String, &mut Value) -> bool) {
        self.inner.retain(|k, v| keep(k, v));
    }

    /// The members in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.inner.iter())
    }

    /// The members in order, values mutable.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut(self.inner.iter_mut())
    }

    /// The keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &String> + DoubleEndedIterator {
        self.inner.keys()
    }

    /// The values in order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> + DoubleEndedIterator {
        self.inner.values()
    }

    /// The values in order, mutable.
    pub fn values_mut(
        &mut self,
    ) -> impl ExactSizeIterator<Item = &mut Value> + DoubleEndedIterator {
        self.inner.values_mut()
    }

    /// The entry for `key`, to read or fill in one lookup.
    pub fn entry(&mut self, key: String) -> Entry<'_> {
        match self.inner.entry(key) {
            indexmap::map::Entry::Occupied(e) => Entry::Occupied(OccupiedEntry(e)),
            indexmap::map::Entry::Vacant(e) => Entry::Vacant(VacantEntry(e)),
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
pub struct OccupiedEntry<'a>(indexmap::map::OccupiedEntry<'a, String, Value>);
/// A key that is not a member yet.
pub struct VacantEntry<'a>(indexmap::map::VacantEntry<'a, String, Value>);

impl<'a> OccupiedEntry<'a> {
    /// The member's key.
    pub fn key(&self) -> &String {
        self.0.key()
    }
    /// The member's value.
    pub fn get(&self) -> &Value {
        self.0.get()
    }
    /// The member's value, mutably.
    pub fn get_mut(&mut self) -> &mut Value {
        self.0.get_mut()
    }
    /// Replaces the value in place (the member keeps its position); returns the old one.
    pub fn insert(&mut self, value: Value) -> Value {
        self.0.insert(value)
    }
    /// The member's value, for the entry's lifetime.
    pub fn into_mut(self) -> &'a mut Value {
        self.0.into_mut()
    }
}

impl<'a> VacantEntry<'a> {
    /// Adds the member last.
    pub fn insert(self, value: Value) -> &'a mut Value {
        self.0.insert(value)
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
pub struct Iter<'a>(indexmap::map::Iter<'a, String, Value>);
/// The members of a [`Map`] in order, values mutable.
pub struct IterMut<'a>(indexmap::map::IterMut<'a, String, Value>);
/// The members of a [`Map`] in order, owned.
pub struct IntoIter(indexmap::map::IntoIter<String, Value>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a String, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}
impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back()
    }
}
impl ExactSizeIterator for Iter<'_> {}

impl<'a> Iterator for IterMut<'a> {
    type Item = (&'a String, &'a mut Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next()
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
        IntoIter(self.inner.into_iter())
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
        self.inner.extend(iter);
    }
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.inner.iter()).finish()
    }
}

impl std::ops::Index<&str> for Map {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&super::NULL)
    }
}
