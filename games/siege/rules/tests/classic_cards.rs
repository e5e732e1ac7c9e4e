//! The 1993 two-use Doomtrooper cards (classic.md CDT-1, CDT-2) over whole
//! games: the deal (Capitol's third card, CCO-1), hidden hands and stolen
//! cards (core HID-2), `legal()` and the end of "this round" effects. The
//! single uses are scenarios in `tests/scenarios/classic_cards.toml`.

use citadel_rules::content::classic_tables::ClassicDtUse;
use citadel_rules::content::Corporation;
use citadel_rules::dice::SeededDice;
use citadel_rules::game::position::{Position, TurnSpec};
use citadel_rules::game::view::PhaseView;
use citadel_rules::game::{Command, DarkLegionSetup, Event, Game, Seat, Setup, Viewer};
use std::collections::BTreeMap;

const CORPS: [Corporation; 3] = [
    Corporation::Capitol,
    Corporation::Bauhaus,
    Corporation::Imperial,
];

fn training(corps: &[Corporation], seed: u64) -> (Game, SeededDice) {
    let setup = Setup::new("classic-training", corps, DarkLegionSetup::Ai).with_seed(seed);
    let mut dice = SeededDice::new(seed);
    let (game, _) = Game::new(setup, &mut dice).expect("training");
    (game, dice)
}

/// Pass the draft; returns every event since.
fn pass_draft(g: &mut Game, dice: &mut SeededDice) -> Vec<Event> {
    let mut events = Vec::new();
    while let Some(seat) = g.seat_to_act() {
        if !g.legal(seat).contains(&Command::PassEquipment) {
            break;
        }
        events.extend(g.apply(seat, Command::PassEquipment, dice).expect("pass"));
    }
    events
}

fn state(g: &Game) -> serde_json::Value {
    serde_json::to_value(g).expect("state serializes")
}

fn cards_of(g: &Game, team: usize) -> Vec<u64> {
    state(g)["teams"][team]["cards"]
        .as_array()
        .map(|a| a.iter().filter_map(|c| c.as_u64()).collect())
        .unwrap_or_default()
}

/// CDT-1, CCO-1: every team is dealt 2 cards of the 13-card deck, Capitol
/// 3 (its ability); no card is in two hands, and the deal follows the seed.
/// The training mission deals them too (missions.md says nothing against).
#[test]
fn cdt_1_cco_1_capitol_is_dealt_three_cards_every_other_team_two() {
    let (mut g, mut dice) = training(&CORPS, 11);
    pass_draft(&mut g, &mut dice);
    let hands: Vec<Vec<u64>> = (0..3).map(|t| cards_of(&g, t)).collect();
    assert_eq!(
        hands.iter().map(Vec::len).collect::<Vec<_>>(),
        vec![3, 2, 2]
    );
    let mut all: Vec<u64> = hands.concat();
    all.extend(
        state(&g)["two_use_deck"]
            .as_array()
            .expect("the undealt cards stay in the deck")
            .iter()
            .filter_map(|c| c.as_u64()),
    );
    all.sort_unstable();
    assert_eq!(all, (1..=13).collect::<Vec<u64>>(), "each card once");
    let (mut g2, mut d2) = training(&CORPS, 11);
    pass_draft(&mut g2, &mut d2);
    assert_eq!(
        (0..3).map(|t| cards_of(&g2, t)).collect::<Vec<_>>(),
        hands,
        "same seed, same deal"
    );
}

/// HID-2: a hand is in its owner's view only; others and spectators see a
/// count, in views and in the deal events; re-dealing every hidden card
/// but a seat's own changes nothing that seat (or a spectator) is given.
#[test]
fn cdt_1_hid_2_hands_are_seen_by_their_owner_only() {
    let (mut g, mut dice) = training(&CORPS, 3);
    let events = pass_draft(&mut g, &mut dice);
    let capitol = g.seat_of(Corporation::Capitol).expect("capitol");
    let bauhaus = g.seat_of(Corporation::Bauhaus).expect("bauhaus");
    let own = g.view(Viewer::Seat(capitol));
    assert_eq!(own.teams[0].cards.as_ref().map(Vec::len), Some(3));
    for viewer in [Viewer::Seat(bauhaus), Viewer::Spectator] {
        let v = g.view(viewer);
        assert_eq!(v.teams[0].cards, None, "{viewer:?} sees no Capitol card");
        assert_eq!(v.teams[0].cards_size, 3);
        for e in Game::filter_events(&events, viewer) {
            if let Event::TwoUseDealt { seat, cards, .. } = e {
                assert!(cards.is_none() || Viewer::Seat(seat) == viewer);
            }
        }
    }
    for keep in [capitol, Seat(200)] {
        let viewer = if keep == capitol {
            Viewer::Seat(capitol)
        } else {
            Viewer::Spectator
        };
        let before = (g.view(viewer), g.legal(keep));
        let mut scrambled = g.clone();
        scrambled.scramble_hidden(keep, &mut SeededDice::new(99));
        assert_eq!((scrambled.view(viewer), scrambled.legal(keep)), before);
    }
}

fn position_with(cards: &[(Corporation, Vec<u32>)]) -> Position {
    let mut p = Position {
        turn: Some(TurnSpec::Corporation(Corporation::Capitol)),
        face_down: (0..5).map(|t| (t, Vec::new())).collect(),
        cards: cards.iter().cloned().collect::<BTreeMap<_, _>>(),
        ..Position::default()
    };
    p.figures = serde_json::from_value(serde_json::json!([
        { "name": "capitol-big_bob_watts", "at": { "x": 2, "y": 3 }, "health": 3 },
        { "name": "bauhaus-max_steiner", "at": { "x": 4, "y": 1 } },
        { "creature": "legionnaire", "at": { "x": 5, "y": 5 } },
    ]))
    .expect("figures");
    p
}

/// CDT-1 Steal Initiative, HID-2: the stolen card is shown to the thief and
/// its victim only; the third player and spectators see that a card moved.
#[test]
fn cdt_1_hid_2_a_stolen_card_is_seen_by_the_two_players_only() {
    let setup = Setup::new("classic-training", &CORPS, DarkLegionSetup::Ai).with_seed(1);
    let p = position_with(&[
        (Corporation::Capitol, vec![2]),
        (Corporation::Bauhaus, vec![6, 9]),
    ]);
    let mut dice = SeededDice::new(4);
    let mut g = Game::scenario(setup, &p, &mut dice).expect("position");
    let [capitol, bauhaus, imperial] = CORPS.map(|c| g.seat_of(c).expect("seat"));
    let steal = Command::PlayTwoUse {
        card: 2,
        card_use: ClassicDtUse::StealInitiative,
        corporation: Some(Corporation::Bauhaus),
        figure: None,
        tile: None,
        to_tile: None,
        squares: None,
    };
    assert!(g.legal(capitol).contains(&steal));
    let events = g.apply(capitol, steal, &mut dice).expect("steal");
    let taken = cards_of(&g, 0);
    assert_eq!(taken.len(), 1);
    let shown = |viewer| {
        Game::filter_events(&events, viewer)
            .into_iter()
            .find_map(|e| match e {
                Event::TwoUseTaken { card, .. } => Some(card),
                _ => None,
            })
            .expect("the taking is public")
    };
    assert_eq!(shown(Viewer::Seat(capitol)).map(u64::from), Some(taken[0]));
    assert_eq!(shown(Viewer::Seat(bauhaus)).map(u64::from), Some(taken[0]));
    assert_eq!(shown(Viewer::Seat(imperial)), None);
    assert_eq!(shown(Viewer::Spectator), None);
    for viewer in [
        Viewer::Seat(imperial),
        Viewer::Spectator,
        Viewer::Seat(bauhaus),
    ] {
        assert_eq!(g.view(viewer).teams[0].cards, None);
    }
}

/// CDT-1: `legal()` lists every use that can be played now and no other:
/// never Dud Round outside its window; each
/// listed play is accepted, and a refused one changes nothing.
#[test]
fn cdt_1_legal_lists_the_plays_and_each_is_accepted() {
    let setup = Setup::new(
        "classic-training",
        &[Corporation::Capitol, Corporation::Bauhaus],
        DarkLegionSetup::Ai,
    )
    .with_seed(2);
    let mut p = position_with(&[(Corporation::Capitol, (1..=13).collect())]);
    // A face-down force card for Command Interference to move.
    p.face_down.insert(0, vec![1]);
    let mut dice = SeededDice::new(8);
    let g = Game::scenario(setup, &p, &mut dice).expect("position");
    let seat = g.seat_of(Corporation::Capitol).expect("capitol");
    let plays: Vec<Command> = g
        .legal(seat)
        .into_iter()
        .filter(|c| matches!(c, Command::PlayTwoUse { .. }))
        .collect();
    let uses: std::collections::BTreeSet<String> = plays
        .iter()
        .filter_map(|c| match c {
            Command::PlayTwoUse { card_use, .. } => Some(format!("{card_use:?}")),
            _ => None,
        })
        .collect();
    assert!(!uses.contains("DudRound"), "Dud Round waits for its window");
    // 26 uses less Dud Round; Steal and Lost Initiative need another
    // player holding a card.
    assert_eq!(uses.len(), 23, "{uses:?}");
    for cmd in plays {
        let mut h = g.clone();
        assert!(
            h.apply(seat, cmd.clone(), &mut dice).is_ok(),
            "{cmd:?} is listed and accepted"
        );
    }
    let mut h = g.clone();
    let dud = Command::PlayTwoUse {
        card: 7,
        card_use: ClassicDtUse::DudRound,
        corporation: None,
        figure: None,
        tile: None,
        to_tile: None,
        squares: None,
    };
    let before = serde_json::to_string(&h).expect("state");
    assert_eq!(
        h.apply(seat, dud, &mut dice),
        Err(citadel_rules::game::Rejection::CardUseOnlyAsReaction)
    );
    assert_eq!(serde_json::to_string(&h).expect("state"), before);
}

/// README D44: Combat Frenzy's two actions may lift the pool above the cap
/// of 6 for this round; what is left of them at the end of the round is
/// lost, and its effect leaves the view.
#[test]
fn cdt_1_readme_d44_combat_frenzy_actions_left_at_round_end_are_lost() {
    let mut setup = Setup::new(
        "classic-training",
        &[Corporation::Capitol],
        DarkLegionSetup::Ai,
    )
    .with_seed(2);
    setup.starting_rank = 6;
    let mut p = position_with(&[(Corporation::Capitol, vec![4])]);
    p.figures.truncate(1);
    p.markers = Some(Vec::new());
    let mut dice = SeededDice::new(8);
    let mut g = Game::scenario(setup, &p, &mut dice).expect("position");
    let seat = g.seat_of(Corporation::Capitol).expect("capitol");
    let frenzy = Command::PlayTwoUse {
        card: 4,
        card_use: ClassicDtUse::CombatFrenzy,
        corporation: None,
        figure: None,
        tile: None,
        to_tile: None,
        squares: None,
    };
    g.apply(seat, frenzy, &mut dice).expect("frenzy");
    assert_eq!(g.view(Viewer::Spectator).teams[0].extra_actions, Some(8));
    assert_eq!(g.view(Viewer::Spectator).effects.cards.len(), 1);
    let round = g.round();
    g.apply(seat, Command::EndTurn, &mut dice)
        .expect("end turn");
    for _ in 0..50 {
        if g.round() > round {
            break;
        }
        let Some(s) = g.seat_to_act() else { break };
        let legal = g.legal(s);
        let cmd = [Command::EndTurn, Command::PassCard]
            .into_iter()
            .find(|c| legal.contains(c))
            .unwrap_or_else(|| legal[0].clone());
        g.apply(s, cmd, &mut dice).expect("legal");
    }
    let v = g.view(Viewer::Spectator);
    assert!(g.round() > round || matches!(v.phase, PhaseView::Finished { .. }));
    assert_eq!(v.teams[0].extra_actions, Some(6));
    assert!(v.effects.cards.is_empty());
}

/// CDT-1 over whole games: random players (every legal command equally
/// likely) play the cards at every moment the rules allow, and the games
/// finish with no broken invariant (the cards stay conserved, sim.rs) and
/// no seat left without a legal command.
#[test]
fn cdt_1_random_games_play_the_cards_and_finish() {
    let content = citadel_rules::game::playable::relaxed(
        citadel_rules::Content::embedded().expect("content"),
    );
    let mut played = 0;
    for seed in 0..12 {
        let setup = Setup::new(
            "classic-m1",
            &[Corporation::Capitol, Corporation::Mishima],
            DarkLegionSetup::Ai,
        );
        let p = citadel_rules::sim::random_playout_with(&content, setup, seed, 20_000, true)
            .expect("playout");
        assert!(p.violations.is_empty(), "seed {seed}: {:?}", p.violations);
        assert!(p.finished, "seed {seed} did not finish");
        played += p
            .log
            .iter()
            .flat_map(|(_, _, events)| events)
            .filter(|e| matches!(e, Event::TwoUsePlayed { .. }))
            .count();
    }
    assert!(played >= 12, "only {played} cards played in 12 games");
}

/// How many squares `from` reaches by orthogonal steps over passable
/// squares (static walls stop it) on `g`'s board, never stepping between
/// the two squares of `cut`.
fn reach(
    g: &Game,
    from: citadel_rules::geometry::Square,
    cut: Option<[citadel_rules::geometry::Square; 2]>,
) -> usize {
    use citadel_rules::geometry::{Edge, Square, Walls};
    let board = &g.rules().board;
    let walls = Walls::new(board);
    let mut seen = std::collections::BTreeSet::from([from]);
    let mut queue = vec![from];
    while let Some(s) = queue.pop() {
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let n = Square::new(s.x + dx, s.y + dy);
            let cut_here = cut.is_some_and(|[a, b]| (s, n) == (a, b) || (s, n) == (b, a));
            let open = Edge::between(s, n).is_some_and(|e| !walls.is_wall(e));
            if !cut_here && board.passable(n) && open && seen.insert(n) {
                queue.push(n);
            }
        }
    }
    seen.len()
}

/// CDT-1 Remote Controlled Door (decision): a door goes only where the
/// board stays connected, so it can never shut a figure away for good
/// (only a 3-hit close combat attack opens it). On 1993 boards, each
/// offered edge leaves as many squares reachable from it as before; the
/// dead-end room south of (14, 12) on the training board (where a random
/// game once shut its last Doomtrooper in) takes no door.
#[test]
fn cdt_1_a_remote_controlled_door_never_cuts_the_board_in_two() {
    use citadel_rules::geometry::Square;
    let mut offered = 0;
    for mission in [
        "classic-training",
        "classic-m1",
        "classic-m2",
        "classic-m4",
        "classic-m8",
        "classic-m9",
    ] {
        let setup = Setup::new(mission, &[Corporation::Capitol], DarkLegionSetup::Ai).with_seed(1);
        let position: Position = serde_json::from_value(serde_json::json!({
            "face_down": {},
            "cards": { "capitol": [3] },
            "figures": [],
        }))
        .expect("position");
        let mut dice = SeededDice::new(1);
        let g = Game::scenario(setup, &position, &mut dice).expect("scenario");
        let seat = g.seat_to_act().expect("Capitol acts");
        for c in g.legal(seat) {
            if let Command::PlayTwoUse {
                squares: Some([a, b]),
                ..
            } = c
            {
                offered += 1;
                assert_eq!(
                    reach(&g, a, Some([a, b])),
                    reach(&g, a, None),
                    "{mission}: a door between {a} and {b} would cut the board"
                );
                let pocket = [Square::new(14, 12), Square::new(14, 13)];
                assert!(
                    mission != "classic-training" || [a, b] != pocket,
                    "the dead-end room takes no door"
                );
            }
        }
    }
    assert!(offered > 0, "some corridor takes a door");
}
