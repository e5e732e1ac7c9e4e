//! Views as patches: an `events` message carries a JSON Patch (RFC 6902)
//! against the viewer's previous view instead of the whole view.
//!
//! The game makes the patch (`citadel_game::Game::view_patch`, from that
//! viewer's redacted views alone, so it holds nothing the viewer may not
//! see). This is the other side, for typed clients (the load tool,
//! tests): [`apply`] is `json-patch`'s own `patch`, which is
//! all-or-nothing. The browser's is `web-client/patch.js`.

use serde::de::DeserializeOwned;
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
pub fn apply_to_view<V: Serialize + DeserializeOwned>(
    view: &mut V,
    patch: &Patch,
) -> Result<(), ApplyError> {
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
pub fn next_view<V: Serialize + DeserializeOwned + Clone>(
    held: Option<&V>,
    view: Option<&V>,
    patch: Option<&Patch>,
) -> Result<V, ApplyError> {
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
