//! Siege's views as patches (`citadel_game::Game::view_patch`).
//!
//! A command changes one or two of the ~50 figures of a ~9 KB view; five
//! whole views per command (four seats and the spectators) were the
//! server's largest cost after the durable write (docs/BENCHMARKS.md).
//! So two views of one viewer are compared field by field, and the lists
//! (figures, teams, doors, ...) element by element, with the views' own
//! `PartialEq`: nothing unchanged is serialized, and a moved figure
//! becomes `replace /figures/7/square/1`, not a new figure.

use crate::game::GameView;
use citadel_game::patch::{Differ, Patch};

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
    let mut d = Differ::new();
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
    d.finish()
}
