//! Views as patches: a message after a command carries a JSON Patch
//! (RFC 6902) against the viewer's previous view instead of the whole
//! view (docs/PROTOCOL.md, "Views as patches").
//!
//! [`Game::view_patch`](crate::Game::view_patch) makes it. Its default,
//! [`json_diff`], compares the two views as JSON and suits any game; a
//! game whose views are large and change in few places diffs them field
//! by field with a [`Differ`], so that nothing unchanged is serialized
//! (Siege's views are ~9 KB and a command changes one or two figures).
//!
//! A patch holds only `add`, `remove` and `replace`, and only values
//! taken from the new view: made from one viewer's redacted views alone,
//! it can hold nothing that viewer may not see.

use json_patch::{AddOperation, PatchOperation, RemoveOperation};
use serde::Serialize;
use serde_json::Value;

pub use json_patch::Patch;

/// The patch that turns `old` into `new`, from their JSON.
pub fn json_diff<T: Serialize>(old: &T, new: &T) -> Patch {
    json_patch::diff(&to_json(old), &to_json(new))
}

/// Builds a patch of a view top-level field by field: unchanged fields
/// cost a `PartialEq`, changed ones are diffed as JSON under their key,
/// and lists element by element.
#[derive(Debug, Default)]
pub struct Differ {
    ops: Vec<PatchOperation>,
}

impl Differ {
    /// An empty patch.
    pub fn new() -> Self {
        Differ::default()
    }

    /// The patch made so far.
    pub fn finish(self) -> Patch {
        Patch(self.ops)
    }

    /// A field that changed or not as a whole: a changed one is diffed
    /// deeply (`json-patch`), under `/key`.
    pub fn value<T: PartialEq + Serialize>(&mut self, key: &str, old: &T, new: &T) {
        if old != new {
            self.deep(&[key], old, new);
        }
    }

    /// A list, element by element: changed elements are diffed deeply
    /// under `/key/i`; new ones added at the end, lost ones removed from
    /// the end, highest index first. (Lists inside a changed element are
    /// `json-patch`'s, which removes lost elements wherever they are;
    /// docs/PROTOCOL.md, "Views as patches", says both.)
    pub fn list<T: PartialEq + Serialize>(&mut self, key: &str, old: &[T], new: &[T]) {
        for (i, (o, n)) in old.iter().zip(new).enumerate() {
            if o != n {
                self.deep(&[key, &i.to_string()], o, n);
            }
        }
        for (i, n) in new.iter().enumerate().skip(old.len()) {
            self.ops.push(PatchOperation::Add(AddOperation {
                path: pointer(&[key, &i.to_string()]),
                value: to_json(n),
            }));
        }
        for i in (new.len()..old.len()).rev() {
            self.ops.push(PatchOperation::Remove(RemoveOperation {
                path: pointer(&[key, &i.to_string()]),
            }));
        }
    }

    /// A list the JSON leaves out while it is empty.
    pub fn optional_list<T: PartialEq + Serialize>(&mut self, key: &str, old: &[T], new: &[T]) {
        match (old.is_empty(), new.is_empty()) {
            (true, true) => {}
            (false, false) => self.list(key, old, new),
            (true, false) => self.add(key, new),
            (false, true) => self.remove(key),
        }
    }

    /// A value the JSON leaves out while it is `None`.
    pub fn optional<T: PartialEq + Serialize>(
        &mut self,
        key: &str,
        old: Option<&T>,
        new: Option<&T>,
    ) {
        match (old, new) {
            (None, None) => {}
            (Some(o), Some(n)) => self.value(key, o, n),
            (None, Some(n)) => self.add(key, n),
            (Some(_), None) => self.remove(key),
        }
    }

    fn add<T: Serialize + ?Sized>(&mut self, key: &str, new: &T) {
        self.ops.push(PatchOperation::Add(AddOperation {
            path: pointer(&[key]),
            value: to_json(new),
        }));
    }

    fn remove(&mut self, key: &str) {
        self.ops.push(PatchOperation::Remove(RemoveOperation {
            path: pointer(&[key]),
        }));
    }

    /// `json-patch`'s diff of two values, its paths put under `prefix`.
    fn deep<T: Serialize>(&mut self, prefix: &[&str], old: &T, new: &T) {
        let patch = json_patch::diff(&to_json(old), &to_json(new));
        for mut op in patch.0 {
            let path = match &mut op {
                PatchOperation::Add(o) => &mut o.path,
                PatchOperation::Remove(o) => &mut o.path,
                PatchOperation::Replace(o) => &mut o.path,
                PatchOperation::Move(o) => &mut o.path,
                PatchOperation::Copy(o) => &mut o.path,
                PatchOperation::Test(o) => &mut o.path,
            };
            for token in prefix.iter().rev() {
                path.push_front(*token);
            }
            self.ops.push(op);
        }
    }
}

/// A JSON Pointer from its tokens.
fn pointer(tokens: &[&str]) -> jsonptr::PointerBuf {
    jsonptr::PointerBuf::from_tokens(tokens.iter().copied())
}

/// A view's part as JSON. Views serialize to JSON without fail (no maps
/// with non-string keys); were one not to, the part would become `null`
/// and the client's next check would ask for a resync.
fn to_json<T: Serialize + ?Sized>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, PartialEq)]
    struct View {
        n: u8,
        list: Vec<u8>,
        #[serde(skip_serializing_if = "Option::is_none")]
        maybe: Option<u8>,
    }

    fn apply(old: &View, patch: &Patch) -> Value {
        let mut doc = to_json(old);
        json_patch::patch(&mut doc, patch).expect("the patch fits");
        doc
    }

    #[test]
    fn a_differ_patch_turns_the_old_view_into_the_new() {
        let old = View {
            n: 1,
            list: vec![1, 2, 3],
            maybe: None,
        };
        let new = View {
            n: 2,
            list: vec![1, 5],
            maybe: Some(4),
        };
        let mut d = Differ::new();
        d.value("n", &old.n, &new.n);
        d.list("list", &old.list, &new.list);
        d.optional("maybe", old.maybe.as_ref(), new.maybe.as_ref());
        let patch = d.finish();
        assert_eq!(apply(&old, &patch), to_json(&new));
        assert_eq!(patch.0.len(), 4, "{patch:?}");
        assert_eq!(apply(&old, &json_diff(&old, &new)), to_json(&new));
        let mut same = Differ::new();
        same.list("list", &old.list, &old.list);
        assert!(same.finish().0.is_empty());
    }
}
