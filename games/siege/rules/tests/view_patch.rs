//! Siege's views as patches (`citadel_rules::view_diff`): along random games,
//! for every viewer (each seat and a spectator), applying each command's
//! patch to the viewer's previous view — as a client does, from the JSON
//! text that crosses the socket — rebuilds exactly that viewer's new view.
//! And a patch carries only what the new view holds at the place it
//! writes: nothing the viewer may not see rides along.
//!
//! Each case draws a mission, a seed, 1–4 corporations and a Dark Legion
//! (drawn or AI), and plays `legal(seat)[choice % len]` for whoever must
//! act. Raise the case count with `PROPTEST_CASES=200`.

use citadel_game::patch::Patch;
use citadel_rules::content::Corporation;
use citadel_rules::dice::SeededDice;
use citadel_rules::game::{DarkLegionSetup, Game, GameView, Seat, Setup, Viewer};
use citadel_rules::view_diff;
use json_patch::PatchOperation;
use proptest::prelude::*;
use serde_json::Value;

/// Commands per case.
const MAX_STEPS: usize = 200;

fn missions() -> Vec<&'static str> {
    let content = citadel_rules::Content::embedded().expect("embedded content");
    citadel_rules::game::playable::playable_missions(content)
}

fn viewers(game: &Game) -> Vec<Viewer> {
    (0..game.seats().len())
        .map(|s| Viewer::Seat(Seat(s as u8)))
        .chain([Viewer::Spectator])
        .collect()
}

fn json(view: &GameView) -> Value {
    serde_json::to_value(view).expect("a view is JSON")
}

/// What the patch does as the wire carries it: serialized, parsed back,
/// applied to the client's JSON of the old view.
fn apply_as_a_client(old: &Value, patch: &Patch) -> Result<Value, String> {
    let text = serde_json::to_string(patch).map_err(|e| e.to_string())?;
    let parsed: Patch = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let mut view = old.clone();
    json_patch::patch(&mut view, &parsed).map_err(|e| e.to_string())?;
    Ok(view)
}

/// Every value a patch writes is what the new view holds there, and the
/// patch uses only `add`, `remove` and `replace`.
fn only_the_new_view(patch: &Patch, new: &Value) -> Result<(), String> {
    for op in &patch.0 {
        let (path, value) = match op {
            PatchOperation::Add(o) => (&o.path, &o.value),
            PatchOperation::Replace(o) => (&o.path, &o.value),
            PatchOperation::Remove(_) => continue,
            other => return Err(format!("an operation the client does not know: {other:?}")),
        };
        if new.pointer(path.as_str()) != Some(value) {
            return Err(format!("{path} carries {value}, not the new view's value"));
        }
    }
    Ok(())
}

/// Every `remove` of a list element is where docs/PROTOCOL.md ("Views as
/// patches") says, applying the operations one by one: in the view's own
/// lists (`/figures/5`) the last element of the list as it stands; in a
/// list inside a changed part (`/teams/0/hand/1`) the element at the
/// list's new length. Returns how many removes named a position before
/// the last one of the list as it stood (the front or the middle).
fn removes_where_documented(old: &Value, patch: &Patch, new: &Value) -> Result<usize, String> {
    let mut doc = old.clone();
    let mut before_the_end = 0;
    for op in &patch.0 {
        if let PatchOperation::Remove(r) = op {
            let path = r.path.as_str();
            if let Some((parent, last)) = path.rsplit_once('/') {
                if let (Some(Value::Array(list)), Ok(i)) =
                    (doc.pointer(parent), last.parse::<usize>())
                {
                    let own_list = parent.matches('/').count() == 1;
                    let want = if own_list {
                        list.len().checked_sub(1)
                    } else {
                        new.pointer(parent).and_then(Value::as_array).map(Vec::len)
                    };
                    if want != Some(i) {
                        return Err(format!(
                            "remove {path} on a list of {} (new: {:?}): the doc says index {want:?}",
                            list.len(),
                            new.pointer(parent).and_then(Value::as_array).map(Vec::len)
                        ));
                    }
                    if i + 1 < list.len() {
                        before_the_end += 1;
                    }
                }
            }
        }
        json_patch::patch(&mut doc, &Patch(vec![op.clone()])).map_err(|e| e.to_string())?;
    }
    Ok(before_the_end)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        ..ProptestConfig::default()
    })]

    #[test]
    fn patches_rebuild_every_viewers_view(
        mission in prop::sample::select(missions()),
        seed in any::<u64>(),
        players in 1usize..=4,
        ai in any::<bool>(),
        corps in Just(Corporation::ALL.to_vec()).prop_shuffle(),
        choices in prop::collection::vec(any::<u32>(), MAX_STEPS),
    ) {
        // A drawn Dark Legion needs two players (SET-12).
        let players = if ai { players } else { players.max(2) };
        let dl = if ai { DarkLegionSetup::Ai } else { DarkLegionSetup::Drawn };
        let setup = Setup::new(mission, &corps[..players], dl).with_seed(seed);
        let mut dice = SeededDice::new(seed);
        let (mut game, _) = Game::new_unchecked(setup, &mut dice).expect("valid setup");
        let viewers = viewers(&game);
        // What each client holds: the typed view the server keeps, and the
        // JSON the client rebuilt.
        let mut held: Vec<(GameView, Value)> = viewers
            .iter()
            .map(|v| {
                let view = game.view(*v);
                let j = json(&view);
                (view, j)
            })
            .collect();
        let (mut patch_bytes, mut view_bytes) = (0usize, 0usize);
        for choice in choices {
            if game.is_finished() {
                break;
            }
            let Some(seat) = game.seat_to_act() else { break };
            let legal = game.legal(seat);
            prop_assert!(!legal.is_empty());
            let command = legal[choice as usize % legal.len()].clone();
            game.apply(seat, command, &mut dice).expect("a legal command applies");
            for (viewer, (old, old_json)) in viewers.iter().zip(held.iter_mut()) {
                let new = game.view(*viewer);
                let new_json = json(&new);
                let patch = view_diff::diff(old, &new);
                let rebuilt = apply_as_a_client(old_json, &patch);
                prop_assert_eq!(rebuilt.as_ref(), Ok(&new_json), "viewer {:?}", viewer);
                only_the_new_view(&patch, &new_json).map_err(TestCaseError::fail)?;
                removes_where_documented(old_json, &patch, &new_json).map_err(TestCaseError::fail)?;
                // And the typed side a Rust client uses agrees.
                let mut typed = old.clone();
                typed = { let mut json = serde_json::to_value(&typed).map_err(|e| TestCaseError::fail(e.to_string()))?; json_patch::patch(&mut json, &patch).map_err(|e| TestCaseError::fail(e.to_string()))?; serde_json::from_value(json).map_err(|e| TestCaseError::fail(e.to_string()))? };
                prop_assert_eq!(&typed, &new);
                patch_bytes += serde_json::to_string(&patch).map(|t| t.len()).unwrap_or(0);
                view_bytes += serde_json::to_string(&new).map(|t| t.len()).unwrap_or(0);
                *old = new;
                *old_json = new_json;
            }
        }
        // Lists are diffed element by element, so a command that moves a
        // figure sends that figure's change, not the view again.
        prop_assert!(
            patch_bytes * 5 < view_bytes.max(1),
            "patches {} bytes against views {} bytes",
            patch_bytes,
            view_bytes
        );
    }
}

#[test]
fn an_unchanged_view_is_an_empty_patch_and_a_wrong_base_is_refused() {
    let setup = Setup::new(
        "ce-c1m1",
        &[Corporation::Bauhaus, Corporation::Capitol],
        DarkLegionSetup::Drawn,
    )
    .with_seed(7);
    let mut dice = SeededDice::new(7);
    let (mut game, _) = Game::new_unchecked(setup, &mut dice).expect("valid setup");
    let before = game.view(Viewer::Spectator);
    assert!(view_diff::diff(&before, &before).0.is_empty());
    // Play until the spectator's view changes in a list.
    let mut after = before.clone();
    while after.figures == before.figures && !game.is_finished() {
        let seat = game.seat_to_act().expect("someone acts");
        let command = game.legal(seat)[0].clone();
        game.apply(seat, command, &mut dice).expect("applies");
        after = game.view(Viewer::Spectator);
    }
    let patch = view_diff::diff(&before, &after);
    assert!(!patch.0.is_empty());
    // A client whose view is not the base (here: one with no figures) gets
    // an error and keeps its view untouched, never a half-patched one.
    let mut wrong = json(&before);
    wrong["figures"] = Value::Array(Vec::new());
    let kept = wrong.clone();
    assert!(json_patch::patch(&mut wrong, &patch).is_err());
    assert_eq!(wrong, kept);
}

/// docs/PROTOCOL.md ("Views as patches") once said that lost list
/// elements are always removed from the end, highest index first. Inside
/// a changed part they are not: random games soon patch a list that lost
/// two or more elements at once (a hand, the effects' lists, ...), whose
/// removes name its first or a middle position, again and again. Every
/// remove is where the doc now says, and such removes do occur.
#[test]
fn nested_lists_lose_elements_at_their_new_length_as_documented() {
    let mut before_the_end = 0;
    'games: for seed in 0..40u64 {
        let corps = [
            Corporation::Bauhaus,
            Corporation::Capitol,
            Corporation::Mishima,
        ];
        let setup = Setup::new("ce-c1m1", &corps, DarkLegionSetup::Drawn).with_seed(seed);
        let mut dice = SeededDice::new(seed);
        let (mut game, _) = Game::new_unchecked(setup, &mut dice).expect("valid setup");
        let viewers = viewers(&game);
        let mut held: Vec<GameView> = viewers.iter().map(|v| game.view(*v)).collect();
        for step in 0..2_000u64 {
            if game.is_finished() {
                break;
            }
            let Some(seat) = game.seat_to_act() else {
                break;
            };
            let legal = game.legal(seat);
            let command =
                legal[(seed.wrapping_mul(31).wrapping_add(step) as usize) % legal.len()].clone();
            game.apply(seat, command, &mut dice)
                .expect("a legal command applies");
            for (viewer, old) in viewers.iter().zip(held.iter_mut()) {
                let new = game.view(*viewer);
                let patch = view_diff::diff(old, &new);
                before_the_end += removes_where_documented(&json(old), &patch, &json(&new))
                    .unwrap_or_else(|e| panic!("seed {seed}, step {step}, {viewer:?}: {e}"));
                *old = new;
            }
            if before_the_end >= 3 {
                break 'games;
            }
        }
    }
    assert!(
        before_the_end >= 3,
        "no remove before the end of a list in 40 games: {before_the_end}"
    );
}
