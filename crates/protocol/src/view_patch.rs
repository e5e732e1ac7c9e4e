//! Views as patches: an `events` message carries a JSON Patch (RFC 6902)
//! against the viewer's previous view instead of the whole view.
//!
//! A command changes one or two of the ~50 figures of a ~9 KB view; five
//! whole views per command (four seats and the spectators) were the
//! server's largest cost after the durable write (docs/BENCHMARKS.md).
//!
//! [`diff`] compares two views of the same viewer field by field, and the
//! lists (figures, teams, doors, ...) element by element, with the views'
//! own `PartialEq`: nothing unchanged is serialized. Only a changed part
//! goes through `serde_json::Value` and the `json-patch` crate's diff, so
//! a moved figure becomes `replace /figures/7/square/1`, not a new
//! figure. The patch holds only `add`, `remove` and `replace`, and only
//! values taken from the new view: a patch for a viewer is made from that
//! viewer's redacted views alone, so it can hold nothing the viewer may
//! not see.
//!
//! [`apply`] is the other side (the load tool, tests): `json-patch`'s own
//! `patch`, which is all-or-nothing. The browser's is
//! `web-client/patch.js`.

use citadel_rules::game::GameView;
use json_patch::{AddOperation, PatchOperation, RemoveOperation};
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

pub use json_patch::Patch;

/// One operation of a view patch, as TypeScript sees it (the Rust side
/// uses [`json_patch::PatchOperation`]; only these three are sent).
#[derive(Clone, Debug, PartialEq, TS)]
#[ts(tag = "op", rename_all = "snake_case")]
pub enum ViewPatchOp {
    /// Add a member to an object, or insert an element into an array at
    /// the index the path ends with.
    Add {
        /// A JSON Pointer (RFC 6901) into the view.
        path: String,
        /// The new value.
        #[ts(type = "unknown")]
        value: Value,
    },
    /// Remove an object member or an array element.
    Remove {
        /// A JSON Pointer (RFC 6901) into the view.
        path: String,
    },
    /// Replace the value at the path (it exists).
    Replace {
        /// A JSON Pointer (RFC 6901) into the view.
        path: String,
        /// The new value.
        #[ts(type = "unknown")]
        value: Value,
    },
}

/// Why a patch could not be applied: the client's view is not the one
/// the patch was made against. A client that sees this asks for a
/// `resync`.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    /// The patch does not fit the view.
    #[error("the view patch does not apply: {0}")]
    Patch(#[from] json_patch::PatchError),
    /// The patched view is not a view.
    #[error("the patched view is not a view: {0}")]
    NotAView(#[from] serde_json::Error),
    /// A patch came, but no view is held to apply it to.
    #[error("a view patch came before any view")]
    NoView,
}

/// Apply `patch` to a view held as JSON. All or nothing: on an error the
/// view is unchanged.
///
/// # Errors
/// If an operation does not fit the view (a path that is not there).
pub fn apply(view: &mut Value, patch: &Patch) -> Result<(), ApplyError> {
    json_patch::patch(view, patch)?;
    Ok(())
}

/// Apply `patch` to a typed view (through JSON).
///
/// # Errors
/// If the patch does not fit, or the result is not a view.
pub fn apply_to_view(view: &mut GameView, patch: &Patch) -> Result<(), ApplyError> {
    let mut json = serde_json::to_value(&*view)?;
    apply(&mut json, patch)?;
    *view = serde_json::from_value(json)?;
    Ok(())
}

/// The view after an `events` message, for a typed client holding
/// `held`: the message's whole `view`, or its `view_patch` applied to
/// `held`.
///
/// # Errors
/// A patch with no view held, or one that does not fit it.
pub fn next_view(
    held: Option<&GameView>,
    view: Option<&GameView>,
    patch: Option<&Patch>,
) -> Result<GameView, ApplyError> {
    match (view, patch, held) {
        (Some(view), _, _) => Ok(view.clone()),
        (None, Some(patch), Some(held)) => {
            let mut next = held.clone();
            apply_to_view(&mut next, patch)?;
            Ok(next)
        }
        (None, None, Some(held)) => Ok(held.clone()),
        (None, _, None) => Err(ApplyError::NoView),
    }
}

/// The patch that turns `old` into `new`, two views of the same viewer.
/// Applied to `old` as JSON, it gives exactly `new` as JSON (the property
/// test in `tests/view_patch.rs` checks this along random games for
/// every viewer).
pub fn diff(old: &GameView, new: &GameView) -> Patch {
    // Destructured without `..`: a field added to `GameView` fails to
    // compile here until it is diffed too.
    let GameView {
        viewer,
        mission,
        round,
        final_round,
        phase,
        to_act,
        pending,
        active,
        teams,
        dark_legion,
        figures,
        tokens,
        doors,
        card_doors,
        tiles,
        force_pile,
        force_discard,
        event_deck,
        current_event,
        event_discard,
        markers_left,
        effects,
        specials,
        card_played,
        special_features,
        destroyed_tokens,
        ai_deck,
        carried_out,
        exits,
        goal_first_done,
        credits,
    } = new;
    let mut d = Differ::default();
    d.value("viewer", &old.viewer, viewer);
    d.value("mission", &old.mission, mission);
    d.value("round", &old.round, round);
    d.value("final_round", &old.final_round, final_round);
    d.value("phase", &old.phase, phase);
    d.value("to_act", &old.to_act, to_act);
    d.value("pending", &old.pending, pending);
    d.value("active", &old.active, active);
    d.list("teams", &old.teams, teams);
    d.value("dark_legion", &old.dark_legion, dark_legion);
    d.list("figures", &old.figures, figures);
    d.list("tokens", &old.tokens, tokens);
    d.list("doors", &old.doors, doors);
    d.list("tiles", &old.tiles, tiles);
    d.value("force_pile", &old.force_pile, force_pile);
    d.list("force_discard", &old.force_discard, force_discard);
    d.value("event_deck", &old.event_deck, event_deck);
    d.value("current_event", &old.current_event, current_event);
    d.list("event_discard", &old.event_discard, event_discard);
    d.value("markers_left", &old.markers_left, markers_left);
    d.value("effects", &old.effects, effects);
    d.list("specials", &old.specials, specials);
    d.value("card_played", &old.card_played, card_played);
    // Left out of the JSON when empty (or `None`): added and removed whole.
    d.optional_list("special_features", &old.special_features, special_features);
    d.optional_list("destroyed_tokens", &old.destroyed_tokens, destroyed_tokens);
    d.optional("ai_deck", old.ai_deck.as_ref(), ai_deck.as_ref());
    d.optional_list("carried_out", &old.carried_out, carried_out);
    d.optional_list("exits", &old.exits, exits);
    d.optional_list("card_doors", &old.card_doors, card_doors);
    d.optional_list("credits", &old.credits, credits);
    // Left out of the JSON while false.
    d.optional(
        "goal_first_done",
        old.goal_first_done.then_some(&true),
        goal_first_done.then_some(&true),
    );
    Patch(d.ops)
}

/// Collects the operations, top-level field by field.
#[derive(Default)]
struct Differ {
    ops: Vec<PatchOperation>,
}

impl Differ {
    /// A field that changed or not as a whole: a changed one is diffed
    /// deeply (`json-patch`), under `/key`.
    fn value<T: PartialEq + Serialize>(&mut self, key: &str, old: &T, new: &T) {
        if old != new {
            self.deep(&[key], old, new);
        }
    }

    /// A list, element by element: changed elements are diffed deeply
    /// under `/key/i`; new ones added at the end, lost ones removed from
    /// the end.
    fn list<T: PartialEq + Serialize>(&mut self, key: &str, old: &[T], new: &[T]) {
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
    fn optional_list<T: PartialEq + Serialize>(&mut self, key: &str, old: &[T], new: &[T]) {
        match (old.is_empty(), new.is_empty()) {
            (true, true) => {}
            (false, false) => self.list(key, old, new),
            (true, false) => self.add(key, new),
            (false, true) => self.remove(key),
        }
    }

    /// A value the JSON leaves out while it is `None`.
    fn optional<T: PartialEq + Serialize>(&mut self, key: &str, old: Option<&T>, new: Option<&T>) {
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

/// A view's part as JSON. The view's types serialize to JSON without
/// fail (no maps with non-string keys); were one not to, the part would
/// become `null` and the client's next check would ask for a resync.
fn to_json<T: Serialize + ?Sized>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}
