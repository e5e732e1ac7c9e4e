//! Bots in 1993 games with secondary missions (classic CSM-1): with 3 and
//! 4 corporation teams the heuristic corporations and the AI Dark Legion
//! finish every game with legal commands, and a team holding Map the
//! Citadel heads for the sectors it has not mapped yet.

use citadel_bots::{AiDarkLegion, Bot, HeuristicCorporation, Seen};
use citadel_rules::content::Corporation;
use citadel_rules::dice::SeededDice;
use citadel_rules::game::position::Position;
use citadel_rules::game::ruleset::classic_secondary::MAP_THE_CITADEL;
use citadel_rules::game::{Command, DarkLegionSetup, Game, Setup, Viewer};
use citadel_rules::geometry::Square;

const CORPS: [Corporation; 4] = [
    Corporation::Capitol,
    Corporation::Bauhaus,
    Corporation::Imperial,
    Corporation::Mishima,
];

#[test]
fn csm_1_heuristic_corporations_and_the_ai_dl_finish_1993_games_with_secondaries() {
    let mut held = 0;
    for (mission, teams) in [("classic-m5", 3), ("classic-m5", 4), ("classic-m1", 4)] {
        for seed in 0..3u64 {
            let mut dice = SeededDice::new(seed);
            let setup = Setup::new(mission, &CORPS[..teams], DarkLegionSetup::Ai).with_seed(seed);
            let (mut g, _) = Game::new(setup, &mut dice).expect("setup");
            let dl = g.dark_legion_seat();
            let mut ai = AiDarkLegion::new();
            let mut corp = HeuristicCorporation::new();
            let mut applied = 0;
            while !g.is_finished() && applied < 30_000 {
                let seat = g.seat_to_act().expect("a seat acts");
                let bot: &mut dyn Bot = if seat == dl { &mut ai } else { &mut corp };
                let cmd = bot.choose(&Seen::of(&g, seat)).expect("a command");
                assert!(
                    g.legal(seat).contains(&cmd),
                    "{mission} seed {seed}: {cmd:?}"
                );
                g.apply(seat, cmd, &mut dice).expect("legal");
                applied += 1;
            }
            assert!(
                g.is_finished(),
                "{mission} {teams} teams seed {seed} is stuck"
            );
            let view = g.view(Viewer::Spectator);
            held += view.teams.iter().filter(|t| t.secondary.is_some()).count();
        }
    }
    assert_eq!(held, 3 + 2 * 3 + 2 * 3, "one card per team off the primary");
}

/// Mission 5, Capitol's turn, its DT in sector 1 with every sector but
/// sector 4 mapped; the Battle Computer (the primary goal) lies east.
fn mapping_position(card: Option<u32>) -> (Game, Seen) {
    let mut marked = serde_json::Map::new();
    for tile in [0, 1, 2, 3, 5, 6] {
        marked.insert(tile.to_string(), serde_json::json!(["capitol"]));
    }
    let mut json = serde_json::json!({
        "turn": { "corporation": "capitol" },
        "face_down": { "0": [], "1": [], "2": [], "3": [], "4": [], "5": [], "6": [] },
        "marked": marked,
        "figures": [{ "name": "capitol-big_bob_watts", "at": { "x": 2, "y": 3 } }],
    });
    if let Some(card) = card {
        json["secondary"] = serde_json::json!({ "capitol": card });
    }
    let position: Position = serde_json::from_value(json).expect("position");
    let setup = Setup::new("classic-m5", &CORPS[..3], DarkLegionSetup::Ai).with_seed(1);
    let g = Game::scenario(setup, &position, &mut SeededDice::new(1)).expect("position");
    let seat = g.view(Viewer::Spectator).teams[0].seat;
    let seen = Seen::of(&g, seat);
    (g, seen)
}

fn move_end(cmd: &Command) -> Square {
    match cmd {
        Command::Move { path, .. } => *path.last().expect("a step"),
        other => panic!("expected a move, got {other:?}"),
    }
}

#[test]
fn csm_map_the_citadel_the_holder_heads_for_the_unmapped_sector() {
    let (_, seen) = mapping_position(Some(MAP_THE_CITADEL));
    let end = move_end(
        &HeuristicCorporation::new()
            .choose(&seen)
            .expect("a command"),
    );
    assert!(end.y > 3, "toward sector 4 (south): {end:?}");
    // A team on the primary mission goes for the Battle Computer (east).
    let (_, seen) = mapping_position(None);
    let end = move_end(
        &HeuristicCorporation::new()
            .choose(&seen)
            .expect("a command"),
    );
    assert!(
        end.x > 2 && end.y <= 4,
        "toward the Battle Computer: {end:?}"
    );
}

/// Capture Alien Specimen: the heuristic corporation captures the
/// Centurion next to its DT; in the Dark Legion turn that follows, the AI
/// Dark Legion acts only with the figures it still controls; in the
/// team's next turn the heuristic team walks the captive toward (and out
/// of) a white entrance.
#[test]
fn csm_card_2_the_ai_dl_copes_with_a_captive_it_does_not_control() {
    use citadel_rules::game::ruleset::classic_secondary::{CAPTURE, CAPTURE_ALIEN_SPECIMEN};
    let json = serde_json::json!({
        "turn": { "corporation": "capitol" },
        "event_deck": [5, 6, 2],
        "markers": ["dark_legion"],
        "face_down": { "0": [], "1": [], "2": [], "3": [], "4": [], "5": [], "6": [] },
        "secondary": { "capitol": CAPTURE_ALIEN_SPECIMEN },
        "figures": [
            { "name": "capitol-big_bob_watts", "at": { "x": 2, "y": 5 } },
            { "creature": "centurion", "at": { "x": 2, "y": 4 } },
            { "creature": "legionnaire", "at": { "x": 6, "y": 6 } },
        ],
    });
    let position: Position = serde_json::from_value(json).expect("position");
    // Four teams: every event's reinforcements come without a call.
    let setup = Setup::new("classic-m5", &CORPS, DarkLegionSetup::Ai).with_seed(3);
    let mut g = Game::scenario(setup, &position, &mut SeededDice::new(3)).expect("position");
    let mut dice = SeededDice::new(3);
    let capitol = g.view(Viewer::Spectator).teams[0].seat;
    let bob = g
        .view(Viewer::Spectator)
        .figures
        .iter()
        .find(|f| f.name == "capitol-big_bob_watts")
        .expect("bob")
        .id;
    let centurion = g.figure_at(Square::new(2, 4)).expect("centurion");
    let capture = Command::Special {
        figure: bob,
        action: CAPTURE.to_string(),
    };
    assert_eq!(
        HeuristicCorporation::new().choose(&Seen::of(&g, capitol)),
        Some(capture.clone()),
        "the bot takes its prisoner"
    );
    g.apply(capitol, capture, &mut dice).expect("capture");
    g.apply(capitol, Command::EndTurn, &mut dice)
        .expect("end turn");
    let dl = g.dark_legion_seat();
    let mut ai = AiDarkLegion::new();
    let mut corp = HeuristicCorporation::new();
    let (mut steps, mut dl_commands) = (0, 0);
    while g.seat_to_act() != Some(capitol) && !g.is_finished() && steps < 3000 {
        steps += 1;
        let seat = g.seat_to_act().expect("a seat acts");
        let cmd = if seat == dl {
            dl_commands += 1;
            ai.choose(&Seen::of(&g, dl)).expect("a command")
        } else {
            // The other teams sit still (they could attack the captive).
            Command::EndTurn
        };
        assert!(g.legal(seat).contains(&cmd), "{cmd:?}");
        let uses_captive = matches!(&cmd,
            Command::Move { figure, .. } | Command::Attack { figure, .. } if *figure == centurion);
        assert!(
            seat == capitol || !uses_captive,
            "only its captor moves the captive"
        );
        g.apply(seat, cmd, &mut dice).expect("legal");
    }
    assert!(dl_commands > 0, "the Dark Legion had a turn");
    assert_eq!(g.seat_to_act(), Some(capitol), "the team's next turn");
    let view = g.view(Viewer::Spectator);
    let start = view.figures[centurion.index()].place;
    let cmd = corp.choose(&Seen::of(&g, capitol)).expect("a command");
    assert!(
        matches!(&cmd, Command::Move { figure, .. } if *figure == centurion),
        "the team walks its captive out: {cmd:?} (from {start:?})"
    );
    g.apply(capitol, cmd, &mut dice).expect("legal");
}

/// AI-14 and classic CEV event 11's AI policy: the AI Dark Legion turns
/// the sector holding the most DTs a quarter turn clockwise (a tie goes to
/// the sector first in layout order); on mission 1 with one DT on sector
/// 1 (tile 0) and one on sector 5 (tile 2), that is tile 0.
#[test]
fn ai_14_the_ai_turns_the_sector_with_the_most_dts_clockwise() {
    use citadel_rules::game::SectorChange;
    let corps = [
        Corporation::Capitol,
        Corporation::Bauhaus,
        Corporation::Mishima,
        Corporation::Imperial,
    ];
    let setup = Setup::new("classic-m1", &corps, DarkLegionSetup::Ai).with_seed(3);
    let position: Position = serde_json::from_value(serde_json::json!({
        "turn": "dark_legion_start",
        "event_deck": [2, 11],
        "face_down": { "0": [], "1": [], "2": [], "3": [], "4": [], "5": [] },
        "figures": [
            { "name": "capitol-big_bob_watts", "at": { "x": 2, "y": 3 } },
            { "name": "bauhaus-max_steiner", "at": { "x": 18, "y": 2 } },
        ],
    }))
    .expect("position");
    let mut dice = SeededDice::new(3);
    let mut g = Game::scenario(setup, &position, &mut dice).expect("scenario");
    g.settle(&mut dice);
    let mut ai = AiDarkLegion::new();
    for _ in 0..40 {
        let seat = g.seat_to_act().expect("the Dark Legion acts");
        let legal = g.legal(seat);
        let choice = ai.choose(&Seen::of(&g, seat)).expect("the AI answers");
        assert!(legal.contains(&choice), "{choice:?} is legal");
        if legal
            .iter()
            .any(|c| matches!(c, Command::AlterSectors { .. }))
        {
            let turn = Command::AlterSectors {
                change: Some(SectorChange::Rotate {
                    tile: 0,
                    clockwise: true,
                }),
            };
            assert!(legal.contains(&turn), "the turn is legal here");
            assert_eq!(choice, turn);
            return;
        }
        g.apply(seat, choice, &mut dice).expect("legal");
    }
    panic!("no Altered Reality decision");
}
