//! 1993 rules that show over a whole game rather than in one position:
//! the equipment draft's classic limits (CCO-3, CEQ-1) and the Imperial
//! extra-action pool (CXA-2, CXA-3).

use citadel_rules::content::Corporation;
use citadel_rules::dice::SeededDice;
use citadel_rules::game::view::PhaseView;
use citadel_rules::game::{
    Command, DarkLegionSetup, FigureId, Game, Rejection, RulesetId, Seat, Setup, Viewer,
};

fn training(corp: Corporation, rank: u8) -> (Game, SeededDice) {
    let mut setup = Setup::new("classic-training", &[corp], DarkLegionSetup::Ai).with_seed(5);
    setup.starting_rank = rank;
    assert_eq!(setup.ruleset, RulesetId::Classic);
    let mut dice = SeededDice::new(5);
    let (game, _) = Game::new(setup, &mut dice).expect("training");
    (game, dice)
}

fn pick(item: &str, figure: u16) -> Command {
    Command::PickEquipment {
        item: item.into(),
        figure: FigureId(figure),
    }
}

/// CCO-3: Mitch Hunter, Capitol's close combat specialist (figure 1), may
/// not swap his Shortsword for the Plasma Carbine (1 close combat die);
/// Big Bob Watts may swap his Carbine for a Shortsword. CEQ-1: the Punisher Combo needs rank 2, and in 1993
/// Capitol has no rank bonus in the draft.
#[test]
fn cco_3_ceq_1_the_draft_keeps_classic_limits() {
    let (mut g, mut dice) = training(Corporation::Capitol, 1);
    let seat = Seat(0);
    assert_eq!(
        g.apply(seat, pick("plasma_carbine", 1), &mut dice),
        Err(Rejection::NotEligible)
    );
    assert_eq!(
        g.apply(seat, pick("punisher_combo", 1), &mut dice),
        Err(Rejection::RankTooLow)
    );
    assert!(g
        .apply(seat, pick("punisher_short_sword", 0), &mut dice)
        .is_ok());
    let (mut g2, mut d2) = training(Corporation::Capitol, 2);
    assert!(g2.apply(seat, pick("punisher_combo", 1), &mut d2).is_ok());
}

/// Play on from the draft until `team`'s first turn, ending every other
/// turn at once.
fn to_first_corporation_turn(g: &mut Game, dice: &mut SeededDice) {
    for _ in 0..200 {
        if matches!(
            g.view(Viewer::Spectator).phase,
            PhaseView::Corporation { .. }
        ) {
            return;
        }
        let seat = g.seat_to_act().expect("a seat acts");
        let legal = g.legal(seat);
        let cmd = [Command::PassEquipment, Command::EndTurn]
            .into_iter()
            .find(|c| legal.contains(c))
            .unwrap_or_else(|| legal[0].clone());
        g.apply(seat, cmd, dice).expect("legal");
    }
    panic!("no corporation turn");
}

/// CXA-1/3: Imperial's pool starts at its rank and gains 1 at the start
/// of each of its turns; CXA-2: never above 6.
#[test]
fn cxa_2_3_imperial_gains_an_extra_action_each_turn_up_to_6() {
    for (rank, want) in [(1, 2), (3, 4), (6, 6)] {
        let (mut g, mut dice) = training(Corporation::Imperial, rank);
        to_first_corporation_turn(&mut g, &mut dice);
        let pool = g.view(Viewer::Spectator).teams[0].extra_actions;
        assert_eq!(pool, Some(want), "rank {rank}");
    }
    let (mut g, mut dice) = training(Corporation::Capitol, 3);
    to_first_corporation_turn(&mut g, &mut dice);
    assert_eq!(g.view(Viewer::Spectator).teams[0].extra_actions, Some(3));
}

/// Training (missions.md classic note 4): the mission ends when every DT
/// is out. DTs waiting at their entrance are not out: a lone team that has
/// chosen its entrance plays on.
#[test]
fn training_goes_on_while_the_dts_wait_at_their_entrance() {
    let (mut g, mut dice) = training(Corporation::Capitol, 1);
    to_first_corporation_turn(&mut g, &mut dice);
    let seat = g.seat_to_act().expect("the team acts");
    let choose = Command::ChooseEntrance {
        entrance: "1N".into(),
    };
    assert!(g.legal(seat).contains(&choose));
    g.apply(seat, choose, &mut dice).expect("entrance");
    assert!(!g.is_finished());
    assert!(matches!(
        g.view(Viewer::Spectator).phase,
        PhaseView::Corporation { .. }
    ));
}

/// CEQ-2: the 1993 draft goes one card at a time from the player after
/// the Dark Legion in seat order (the AI Dark Legion sits after the
/// corporation players, so Capitol, seat 0, starts); each card goes to one
/// DT as it is picked; a player who passes is out and is not asked again.
#[test]
fn ceq_2_the_draft_goes_round_one_card_at_a_time_and_passing_is_final() {
    let corps = [Corporation::Capitol, Corporation::Bauhaus];
    let mut setup = Setup::new("classic-m1", &corps, DarkLegionSetup::Ai).with_seed(9);
    setup.starting_rank = 3;
    let mut dice = SeededDice::new(9);
    let (mut g, _) = Game::new(setup, &mut dice).expect("mission 1");
    let (capitol, bauhaus) = (Seat(0), Seat(1));
    assert_eq!(g.seat_to_act(), Some(capitol));
    let first = g
        .legal(capitol)
        .into_iter()
        .find(|c| matches!(c, Command::PickEquipment { .. }))
        .expect("Capitol may pick");
    let Command::PickEquipment { item, figure } = first.clone() else {
        unreachable!()
    };
    g.apply(capitol, first, &mut dice).expect("pick");
    let v = g.view(Viewer::Spectator);
    let carried = &v.figures[figure.index()];
    assert!(
        carried.items.contains(&item) || carried.weapon.as_deref() == Some(item.as_str()),
        "{item} went to {} at once",
        carried.name
    );
    assert_eq!(
        g.seat_to_act(),
        Some(bauhaus),
        "one card, then the next player"
    );
    g.apply(bauhaus, Command::PassEquipment, &mut dice)
        .expect("pass");
    assert_eq!(g.seat_to_act(), Some(capitol));
    let again = g
        .legal(capitol)
        .into_iter()
        .find(|c| matches!(c, Command::PickEquipment { .. }))
        .expect("Capitol picks again");
    g.apply(capitol, again, &mut dice).expect("pick");
    assert_eq!(g.seat_to_act(), Some(capitol), "Bauhaus passed: out");
    assert_eq!(
        g.apply(bauhaus, Command::PassEquipment, &mut dice),
        Err(Rejection::NotYourTurn)
    );
    g.apply(capitol, Command::PassEquipment, &mut dice)
        .expect("pass");
    assert!(!g.legal(capitol).contains(&Command::PassEquipment));
}
