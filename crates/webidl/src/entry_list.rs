//! An ordered list of name-value entries, the shape the XHR Standard's `FormData`
//! ([entry list](https://xhr.spec.whatwg.org/#concept-formdata-entry-list)) and the URL
//! Standard's `URLSearchParams` ([list](https://url.spec.whatwg.org/#concept-urlsearchparams-list))
//! share: names are scalar value strings, values are the interface's; `get`, `getAll`, `has`,
//! `set` and `delete` read and change it the same way ("set" replaces the value of the first
//! entry with the name and removes the others, or appends).
//!
//! It also holds the prologue their name-taking operations share: the brand check, WebIDL's
//! argument count and the conversion of the name argument ([`name_argument`]).
//!
//! ```
//! use boa_webidl::entry_list::EntryList;
//!
//! let mut list = EntryList::new();
//! list.append("a".into(), 1);
//! list.append("b".into(), 2);
//! list.append("a".into(), 3);
//! assert_eq!(list.first("a"), Some(&1));
//! assert_eq!(list.all("a").copied().collect::<Vec<_>>(), [1, 3]);
//! list.set("a".into(), 4);
//! assert_eq!(list.as_slice(), [("a".to_string(), 4), ("b".to_string(), 2)]);
//! list.delete("a");
//! assert!(!list.has("a") && list.has("b"));
//! ```

use boa_engine::{Context, JsObject, JsResult, JsValue, NativeObject};
use boa_gc::{Finalize, Trace};

/// A name-value entry: the name (a scalar value string) and the value.
pub type Entry<V> = (String, V);

/// An ordered list of name-value entries (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq, Eq, Trace, Finalize)]
pub struct EntryList<V: Trace + 'static> {
    entries: Vec<Entry<V>>,
}

impl<V: Trace + 'static> Default for EntryList<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Trace + 'static> From<Vec<Entry<V>>> for EntryList<V> {
    /// The list holding `entries`, in their order.
    ///
    /// ```
    /// let list = boa_webidl::entry_list::EntryList::from(vec![("a".to_string(), 1)]);
    /// assert_eq!(list.len(), 1);
    /// ```
    fn from(entries: Vec<Entry<V>>) -> Self {
        Self { entries }
    }
}

impl<V: Trace + 'static> EntryList<V> {
    /// An empty list.
    ///
    /// ```
    /// let list = boa_webidl::entry_list::EntryList::<u8>::new();
    /// assert!(list.is_empty());
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        Self {
            entries: Vec::new(),
        }
    }

    /// The list's size.
    ///
    /// ```
    /// let list = boa_webidl::entry_list::EntryList::from(vec![("a".to_string(), ())]);
    /// assert_eq!(list.len(), 1);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the list is empty.
    ///
    /// ```
    /// assert!(boa_webidl::entry_list::EntryList::<()>::default().is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries, in order.
    ///
    /// ```
    /// let list = boa_webidl::entry_list::EntryList::from(vec![("a".to_string(), 7)]);
    /// assert_eq!(list.as_slice()[0].1, 7);
    /// ```
    #[must_use]
    pub fn as_slice(&self) -> &[Entry<V>] {
        &self.entries
    }

    /// The entry at `index`, if any.
    ///
    /// ```
    /// let list = boa_webidl::entry_list::EntryList::from(vec![("a".to_string(), 7)]);
    /// assert_eq!(list.get(0), Some(&("a".to_string(), 7)));
    /// assert_eq!(list.get(1), None);
    /// ```
    #[must_use]
    pub fn get(&self, index: usize) -> Option<&Entry<V>> {
        self.entries.get(index)
    }

    /// Append an entry.
    ///
    /// ```
    /// let mut list = boa_webidl::entry_list::EntryList::new();
    /// list.append("a".into(), 1);
    /// assert_eq!(list.len(), 1);
    /// ```
    pub fn append(&mut self, name: String, value: V) {
        self.entries.push((name, value));
    }

    /// The value of the first entry whose name is `name`, or `None` (what `get` returns as
    /// null).
    ///
    /// ```
    /// let list = boa_webidl::entry_list::EntryList::from(vec![
    ///     ("a".to_string(), 1), ("a".to_string(), 2),
    /// ]);
    /// assert_eq!(list.first("a"), Some(&1));
    /// assert_eq!(list.first("b"), None);
    /// ```
    #[must_use]
    pub fn first(&self, name: &str) -> Option<&V> {
        self.entries
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value)
    }

    /// The values of all entries whose name is `name`, in list order (`getAll`).
    ///
    /// ```
    /// let list = boa_webidl::entry_list::EntryList::from(vec![
    ///     ("a".to_string(), 1), ("b".to_string(), 2), ("a".to_string(), 3),
    /// ]);
    /// assert_eq!(list.all("a").copied().collect::<Vec<_>>(), [1, 3]);
    /// ```
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a V> + 'a {
        self.entries
            .iter()
            .filter(move |(n, _)| n == name)
            .map(|(_, value)| value)
    }

    /// Whether there is an entry whose name is `name` (`has`).
    ///
    /// ```
    /// let list = boa_webidl::entry_list::EntryList::from(vec![("a".to_string(), 1)]);
    /// assert!(list.has("a") && !list.has("b"));
    /// ```
    #[must_use]
    pub fn has(&self, name: &str) -> bool {
        self.entries.iter().any(|(n, _)| n == name)
    }

    /// Whether there is an entry whose name is `name` and value is `value` (`has` with a
    /// value).
    ///
    /// ```
    /// let list = boa_webidl::entry_list::EntryList::from(vec![("a".to_string(), 1)]);
    /// assert!(list.has_entry("a", &1) && !list.has_entry("a", &2));
    /// ```
    #[must_use]
    pub fn has_entry(&self, name: &str, value: &V) -> bool
    where
        V: PartialEq,
    {
        self.entries.iter().any(|(n, v)| n == name && v == value)
    }

    /// If there are entries whose name is `name`, set the value of the first to `value` and
    /// remove the others; otherwise append (`name`, `value`).
    ///
    /// ```
    /// let mut list = boa_webidl::entry_list::EntryList::from(vec![
    ///     ("a".to_string(), 1), ("b".to_string(), 2), ("a".to_string(), 3),
    /// ]);
    /// list.set("a".into(), 4);
    /// assert_eq!(list.as_slice(), [("a".to_string(), 4), ("b".to_string(), 2)]);
    /// list.set("c".into(), 5);
    /// assert_eq!(list.len(), 3);
    /// ```
    pub fn set(&mut self, name: String, value: V) {
        let Some(first) = self.entries.iter().position(|(n, _)| *n == name) else {
            self.entries.push((name, value));
            return;
        };
        if let Some(entry) = self.entries.get_mut(first) {
            entry.1 = value;
        }
        let mut index = 0;
        self.entries.retain(|(n, _)| {
            let keep = index <= first || *n != name;
            index += 1;
            keep
        });
    }

    /// Remove all entries whose name is `name`.
    ///
    /// ```
    /// let mut list = boa_webidl::entry_list::EntryList::from(vec![
    ///     ("a".to_string(), 1), ("b".to_string(), 2), ("a".to_string(), 3),
    /// ]);
    /// list.delete("a");
    /// assert_eq!(list.as_slice(), [("b".to_string(), 2)]);
    /// ```
    pub fn delete(&mut self, name: &str) {
        self.entries.retain(|(n, _)| n != name);
    }

    /// Remove all entries whose name is `name` and value is `value`.
    ///
    /// ```
    /// let mut list = boa_webidl::entry_list::EntryList::from(vec![
    ///     ("a".to_string(), 1), ("a".to_string(), 2),
    /// ]);
    /// list.delete_entry("a", &1);
    /// assert_eq!(list.as_slice(), [("a".to_string(), 2)]);
    /// ```
    pub fn delete_entry(&mut self, name: &str, value: &V)
    where
        V: PartialEq,
    {
        self.entries.retain(|(n, v)| !(n == name && v == value));
    }

    /// Sort the entries by name, comparing code units, keeping the order of entries with
    /// equal names (`URLSearchParams`' `sort`).
    ///
    /// ```
    /// let mut list = boa_webidl::entry_list::EntryList::from(vec![
    ///     ("b".to_string(), 1), ("a".to_string(), 2), ("b".to_string(), 3),
    /// ]);
    /// list.sort_by_name();
    /// assert_eq!(list.as_slice().iter().map(|e| e.1).collect::<Vec<_>>(), [2, 1, 3]);
    /// ```
    pub fn sort_by_name(&mut self) {
        // `sort_by` is stable.
        self.entries
            .sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
    }
}

/// A name-taking operation's prologue on an `interface` whose native data is `T`: the brand
/// check of `this`, WebIDL's count of the `required` arguments `method` takes, and the first
/// argument converted by `convert` (to `USVString` for `FormData` and `URLSearchParams`, to
/// `ByteString` for `Headers`).
///
/// ```
/// use boa_engine::{Context, JsResult, JsValue};
/// use boa_gc::{Finalize, Trace};
///
/// #[derive(Trace, Finalize, boa_engine::JsData)]
/// struct List;
///
/// fn to_name(value: &JsValue, ctx: &mut Context) -> JsResult<String> {
///     Ok(value.to_string(ctx)?.to_std_string_lossy())
/// }
///
/// let mut ctx = Context::default();
/// let this: JsValue = boa_engine::JsObject::from_proto_and_data(None, List).into();
/// let args = [JsValue::from(1)];
/// let (_, name) =
///     boa_webidl::entry_list::name_argument::<List, _>(&this, &args, 1, "List", "get", to_name, &mut ctx)
///         .unwrap();
/// assert_eq!(name, "1");
/// let error = boa_webidl::entry_list::name_argument::<List, _>(&this, &[], 1, "List", "get", to_name, &mut ctx)
///     .unwrap_err();
/// assert!(error.to_string().contains("1 argument(s) required"));
/// ```
pub fn name_argument<T: NativeObject, N>(
    this: &JsValue,
    args: &[JsValue],
    required: usize,
    interface: &str,
    method: &str,
    convert: fn(&JsValue, &mut Context) -> JsResult<N>,
    ctx: &mut Context,
) -> JsResult<(JsObject<T>, N)> {
    let object = crate::interface::brand::<T>(this, interface)?;
    crate::error::required_arguments(args, required, interface, method)?;
    let name = convert(&crate::convert::arg(args, 0), ctx)?;
    Ok((object, name))
}
