//! The classic (1993) tables (classic.md) as loaded from
//! `data/classic/*.toml`: golden counts and values, and load errors that
//! name the file and the line.
//!
//! Each test name carries the rule ID it covers. The files are compiled in
//! with `include_str!` and loaded with `load_classic_tables` alone.

use citadel_rules::content::classic_tables::{ClassicDtUse, ClassicTables};
use citadel_rules::content::ids::{Corporation, CreatureKind, Specialty};
use citadel_rules::content::tables::{EquipmentEffect, EventDuration, EventEffect};
use citadel_rules::content::tables_loader::load_classic_tables;
use citadel_rules::content::{Content, ContentError};
use citadel_rules::DieColor::{Black as B, Red as R, White as W};

const FILES: &[(&str, &str)] = &[
    (
        "classic/dice.toml",
        include_str!("../data/classic/dice.toml"),
    ),
    (
        "classic/ranks.toml",
        include_str!("../data/classic/ranks.toml"),
    ),
    (
        "classic/corporations.toml",
        include_str!("../data/classic/corporations.toml"),
    ),
    (
        "classic/weapons.toml",
        include_str!("../data/classic/weapons.toml"),
    ),
    (
        "classic/equipment.toml",
        include_str!("../data/classic/equipment.toml"),
    ),
    (
        "classic/creatures.toml",
        include_str!("../data/classic/creatures.toml"),
    ),
    (
        "classic/terrain.toml",
        include_str!("../data/classic/terrain.toml"),
    ),
    (
        "classic/force_cards.toml",
        include_str!("../data/classic/force_cards.toml"),
    ),
    (
        "classic/events.toml",
        include_str!("../data/classic/events.toml"),
    ),
    (
        "classic/dt_cards.toml",
        include_str!("../data/classic/dt_cards.toml"),
    ),
    (
        "classic/secondary.toml",
        include_str!("../data/classic/secondary.toml"),
    ),
];

fn tables() -> ClassicTables {
    match load_classic_tables(FILES) {
        Ok(t) => t,
        Err(e) => panic!("embedded classic tables fail to load: {e}"),
    }
}

use CreatureKind::{
    Centurion as Cen, Ezoghoul as Ezo, Legionnaire as Leg, Necromutant as Nec, Nepharite as Nep,
    Razide as Raz,
};

#[test]
fn classic_tables_are_part_of_the_embedded_content() {
    let c = match Content::embedded() {
        Ok(c) => c,
        Err(e) => panic!("embedded content fails to load: {e}"),
    };
    assert_eq!(c.classic, tables());
}

#[test]
fn classic_dice_faces_are_the_ce_faces() {
    let t = tables();
    assert_eq!(t.base.dice.white, vec![1, 4]);
    assert_eq!(t.base.dice.red, vec![1, 4, 6]);
    assert_eq!(t.base.dice.black, vec![1, 2, 4, 5]);
}

#[test]
fn crk_1_rank_track_and_crk_3_4_rank_rows() {
    let t = tables();
    assert_eq!(t.rank_min_pp, vec![0, 10, 25, 45, 70, 100]);
    let pp_rank = [
        (0, 1),
        (9, 1),
        (10, 2),
        (24, 2),
        (25, 3),
        (44, 3),
        (45, 4),
        (69, 4),
        (70, 5),
        (99, 5),
        (100, 6),
        (130, 6),
        (-5, 1),
    ];
    for (pp, rank) in pp_rank {
        assert_eq!(t.rank_for_pp(pp), rank, "{pp} PP");
    }
    assert_eq!(t.base.ranks.len(), 6);
    let colours = [W, W, R, R, B, B];
    for (i, r) in t.base.ranks.iter().enumerate() {
        let rank = u8::try_from(i + 1).expect("rank");
        assert_eq!(r.rank, rank);
        assert_eq!(r.combat, [colours[i]; 3], "rank {rank}");
        assert_eq!(r.defense, colours[i], "rank {rank} absorb die");
        assert_eq!(r.credits, 2 * rank, "CRK-4");
        assert_eq!(r.dt_cards, 2, "CDT-1");
    }
}

#[test]
fn cco_2_3_rosters() {
    let t = tables();
    let want = [
        (Corporation::Bauhaus, "Max Steiner", "Valerie Duval"),
        (Corporation::Capitol, "Big Bob Watts", "Mitch Hunter"),
        (Corporation::Cybertronic, "Attila III", "Coral Beach"),
        (Corporation::Imperial, "Edward S. Murdoch", "Sean Gallagher"),
        (Corporation::Mishima, "Tatsu", "Yojimbo"),
    ];
    assert_eq!(t.base.corporations.len(), 5);
    for (id, fa, cc) in want {
        let c = t.base.corporation(id).expect("corporation");
        let roster: Vec<(&str, Specialty)> = c
            .roster
            .iter()
            .map(|r| (r.name.as_str(), r.specialty))
            .collect();
        assert_eq!(
            roster,
            vec![(fa, Specialty::Firearms), (cc, Specialty::CloseCombat)],
            "{id}"
        );
    }
}

#[test]
fn ceq_weapon_table() {
    let t = tables();
    // id, CC dice, FC dice, rank, cost, copies
    let want: [(&str, u8, u8, u8, u8, u8); 8] = [
        ("punisher_short_sword", 3, 0, 1, 0, 5),
        ("plasma_carbine", 1, 3, 1, 0, 5),
        ("punisher_combo", 3, 3, 2, 2, 3),
        ("gehenna_puker", 1, 3, 2, 2, 2),
        ("deathlockdrum", 1, 4, 2, 3, 3),
        ("violator_sword", 4, 0, 3, 3, 3),
        ("violator_combo", 5, 3, 4, 4, 2),
        ("nimrod_autocannon", 0, 3, 4, 4, 2),
    ];
    assert_eq!(t.base.weapons.len(), 8);
    for (w, (id, cc, fc, rank, cost, copies)) in t.base.weapons.iter().zip(want) {
        assert_eq!(w.id, id);
        assert_eq!(w.cc.as_ref().map_or(0, |d| d.rank_dice), cc, "{id} CC");
        assert_eq!(w.fa.as_ref().map_or(0, |f| f.dice.rank_dice), fc, "{id} FC");
        assert!(w
            .cc
            .iter()
            .chain(w.fa.iter().map(|f| &f.dice))
            .all(|d| d.extra.is_empty()));
        assert_eq!(
            (w.rank, w.cost, w.copies),
            (rank, cost, Some(copies)),
            "{id}"
        );
        assert_eq!(
            w.icons,
            vec![Specialty::CloseCombat, Specialty::Firearms],
            "{id}"
        );
        assert!(w.te.is_none());
        assert!(!w.text.is_empty());
        assert_eq!(w.swing, id == "violator_sword", "{id} swing (CSW-2)");
        if let Some(fa) = &w.fa {
            if id == "gehenna_puker" {
                assert_eq!(fa.line, Some(24), "CSW-1");
            } else {
                assert_eq!(
                    (fa.min_range, fa.max_range, fa.line),
                    (2, 24, None),
                    "{id} CDI-4"
                );
            }
            assert_eq!(
                fa.barrels,
                if id == "nimrod_autocannon" { 2 } else { 1 },
                "{id}"
            );
        }
    }
    assert_eq!(
        t.base
            .weapon_def(t.base.base_weapon(Specialty::CloseCombat))
            .id,
        "punisher_short_sword"
    );
    assert_eq!(
        t.base
            .weapon_def(t.base.base_weapon(Specialty::Firearms))
            .id,
        "plasma_carbine"
    );
}

#[test]
fn ceq_equipment_table() {
    use citadel_rules::content::ids::AttackType::{CloseCombat as CC, Firearm as FA};
    use EquipmentEffect as E;
    let t = tables();
    let want = [
        ("cybernetic_power_arm", 2, Some(CC), E::CyberneticPowerArm),
        ("coagulant_autoinjector", 1, None, E::CoagulantAutoinjector),
        ("disruptor", 3, Some(FA), E::Disruptor),
        ("explosive_ammunition", 2, Some(FA), E::ExtraDie),
        ("grenade_launcher", 2, Some(FA), E::GrenadeLauncher),
        ("laser_sight", 1, Some(FA), E::RerollOne),
        ("targeting_eye", 3, Some(FA), E::TargetingEye),
        ("molecular_phaser", 3, None, E::MolecularPhaser),
        ("combat_medic_unit", 3, None, E::CombatMedicUnit),
        ("teleportal", 3, None, E::Teleportal),
        ("command_helmet", 3, None, E::CommandHelmet),
    ];
    assert_eq!(t.base.equipment.len(), 11);
    for (e, (id, cost, augment, effect)) in t.base.equipment.iter().zip(want) {
        assert_eq!(
            (e.id.as_str(), e.cost, e.augment, e.effect),
            (id, cost, augment, effect)
        );
        assert_eq!((e.rank, e.copies), (1, 1), "{id}");
        assert!(!e.text.is_empty());
    }
}

#[test]
fn cdl_3_creatures_by_band() {
    let t = tables();
    let kinds: Vec<CreatureKind> = t.base.creatures.iter().map(|c| c.kind).collect();
    assert_eq!(
        kinds,
        vec![Leg, Nec, Cen, Raz, Nep, Ezo],
        "no Praetorian Stalker"
    );
    assert!(t.base.creature(CreatureKind::PraetorianStalker).is_none());
    // kind, actions (CDL-2), pool (DL-1), PP (CEC-5)
    let rows = [
        (Leg, 2, 12, 1),
        (Nec, 2, 9, 2),
        (Cen, 2, 3, 3),
        (Raz, 2, 2, 5),
        (Nep, 3, 1, 7),
        (Ezo, 3, 1, 10),
    ];
    for (kind, actions, pool, pp) in rows {
        let c = t.base.creature(kind).expect("creature");
        assert_eq!((c.actions, c.pool), (actions, pool), "{kind}");
        assert_eq!(c.bands.len(), 6, "{kind}");
        for (i, s) in c.bands.iter().enumerate() {
            assert_eq!(s.pp, pp, "{kind} band {}", i + 1);
            assert_eq!(s.defense_die, None, "{kind}: AF only (CDF-1)");
            assert_eq!(c.bands[i / 2 * 2], *s, "{kind}: bands pair up");
        }
    }
    let cell = |k, band| {
        let s = t.base.creature_stats(k, band).expect("stats");
        (s.cc.clone(), s.fa.clone(), s.dv)
    };
    assert_eq!(cell(Leg, 1), (vec![R, R], vec![W, W, W], 0));
    assert_eq!(cell(Leg, 4), (vec![R, R], vec![W, W, W], 1));
    assert_eq!(cell(Leg, 6), (vec![B, B], vec![R, R, R], 1));
    assert_eq!(cell(Nec, 3), (vec![R, R, R], vec![B, B], 1));
    assert_eq!(cell(Cen, 2), (vec![W, W, W], vec![W, W, W, W], 1));
    assert_eq!(cell(Raz, 5), (vec![B, B, B], vec![R, R, R, R], 3));
    assert_eq!(cell(Nep, 3), (vec![R; 5], vec![R; 4], 3));
    assert_eq!(cell(Ezo, 1), (vec![R; 4], vec![W; 5], 3));
    assert_eq!(cell(Ezo, 6), (vec![B; 4], vec![R; 5], 4));
}

#[test]
fn cfc_twelve_force_cards() {
    let t = tables();
    assert_eq!(t.base.force_cards.len(), 12);
    let figures = |n: u32| {
        let c = t.base.force_card(n).expect("card");
        assert_eq!(c.options.len(), 1);
        assert!(!c.draw_one_more && !c.stop && !c.remove);
        c.options[0].clone()
    };
    for n in 1..=4 {
        assert_eq!(figures(n), vec![Leg; 3]);
    }
    assert_eq!(figures(5), vec![Nec, Leg]);
    assert_eq!(figures(6), vec![Nec, Leg]);
    assert_eq!(figures(7), vec![Cen, Nec, Leg]);
    assert_eq!(figures(8), vec![Raz, Leg, Leg]);
    assert_eq!(figures(9), vec![Raz, Leg, Leg]);
    assert_eq!(figures(10), vec![Nep]);
    assert_eq!(figures(11), vec![Ezo]);
    assert_eq!(figures(12), Vec::<CreatureKind>::new());
}

#[test]
fn cev_1_thirteen_events_in_table_order() {
    use EventDuration::{DlStep2, Instant, NextRound, RestOfRound};
    use EventEffect as E;
    let t = tables();
    let want = [
        (
            "The Legionnaires' Charge",
            E::LegionnairesCharge,
            DlStep2,
            vec![(Cen, 1), (Nec, 1), (Leg, 8)],
        ),
        (
            "Close Combat Frenzy",
            E::CloseCombatFrenzy,
            RestOfRound,
            vec![(Cen, 1), (Nec, 1), (Leg, 1)],
        ),
        (
            "Close Combat Phobia",
            E::CloseCombatPhobia,
            NextRound,
            vec![(Cen, 1), (Nec, 1)],
        ),
        (
            "Dark Energy Wave",
            E::DarkEnergyWaveAny,
            RestOfRound,
            vec![(Nec, 1), (Leg, 2)],
        ),
        (
            "Dark Influence",
            E::DarkInfluence,
            RestOfRound,
            vec![(Leg, 2)],
        ),
        (
            "Dark Teleportation",
            E::DarkTeleportation,
            RestOfRound,
            vec![(Raz, 1)],
        ),
        (
            "Ezoghoul Attack",
            E::EzoghoulAttack,
            DlStep2,
            vec![(Ezo, 1), (Leg, 3)],
        ),
        ("Mental Block", E::MentalBlock, NextRound, vec![(Cen, 2)]),
        (
            "Misinterpreted Orders",
            E::MisinterpretedOrders,
            NextRound,
            vec![(Leg, 3)],
        ),
        (
            "Necrofrenzy",
            E::Necrofrenzy,
            RestOfRound,
            vec![(Nec, 2), (Leg, 1)],
        ),
        (
            "Nepharite Altered Reality",
            E::NephariteAlteredReality,
            Instant,
            vec![(Nep, 1), (Nec, 2)],
        ),
        (
            "Temporary Defense System",
            E::TemporaryDefensiveSystem,
            Instant,
            vec![(Nec, 1), (Raz, 1)],
        ),
        (
            "Nepharite Timerift",
            E::NephariteTimeRift,
            RestOfRound,
            vec![(Nep, 1), (Leg, 1), (Nec, 1)],
        ),
    ];
    assert_eq!(t.base.events.len(), 13);
    for (i, (name, effect, duration, reinf)) in want.into_iter().enumerate() {
        let e = t
            .base
            .event(u32::try_from(i + 1).expect("n"))
            .expect("event");
        assert_eq!(
            (e.name.as_str(), e.effect, e.duration),
            (name, effect, duration)
        );
        assert!(!e.force_draw, "{name}: classic events draw no force cards");
        let got: Vec<(CreatureKind, u8)> =
            e.reinforcements.iter().map(|r| (r.kind, r.count)).collect();
        assert_eq!(got, reinf, "{name}");
        assert!(e.reinforcements.iter().all(|r| !r.per_corporation));
        assert!(!e.text.is_empty());
    }
}

#[test]
fn cdt_thirteen_two_use_cards() {
    use ClassicDtUse as U;
    let t = tables();
    let want = [
        (U::CombatAura, U::LegionnaireFear),
        (U::CommandingVoice, U::StealInitiative),
        (U::ControlDefenseSystem, U::RemoteControlledDoor),
        (U::CombatFrenzy, U::CombatReport),
        (U::HeroicLuck, U::Necrofear),
        (U::CommandInterference, U::HurtLeg),
        (U::LimitedTeleportation, U::DudRound),
        (U::Medic, U::UncalibratedTargeter),
        (U::MedicineInjector, U::CombatNeurosis),
        (U::MovementBoost, U::FaultyTeleportation),
        (U::MolecularPhasing, U::CoordinatingError),
        (U::SpectralDisplacement, U::FalseOrders),
        (U::WeakSpot, U::LostInitiative),
    ];
    assert_eq!(t.dt_cards.len(), 13);
    for (i, (boon, sabotage)) in want.into_iter().enumerate() {
        let c = &t.dt_cards[i];
        assert_eq!(usize::try_from(c.number).expect("n"), i + 1);
        assert_eq!((c.boon, c.sabotage), (boon, sabotage));
        assert!(!c.boon_name.is_empty() && !c.sabotage_name.is_empty());
        assert!(!c.boon_text.is_empty() && !c.sabotage_text.is_empty());
    }
    assert_eq!(
        t.dt_card(3).map(|c| c.boon_name.as_str()),
        Some("Control Defense System")
    );
    assert!(t.base.dt_cards.is_empty() && t.base.door_cards.is_empty());
}

#[test]
fn csm_ten_secondary_missions_with_credit_rewards() {
    let t = tables();
    let names: Vec<&str> = t.base.secondary.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        vec![
            "Attack the Citadel",
            "Capture Alien Specimen",
            "Convey Important Message",
            "Destroy the Legion",
            "Instigate Legionnaire Mutiny",
            "Map the Citadel",
            "Prepare for Main Attack",
            "Prove Your Worth",
            "Replenish Collection",
            "Support Examination",
        ]
    );
    for (i, s) in t.base.secondary.iter().enumerate() {
        assert_eq!(usize::try_from(s.number).expect("n"), i + 1);
        assert_eq!(
            (s.success, s.failure, s.commander_penalty),
            (2, 1, 0),
            "CSM-2"
        );
    }
}

// ---------------------------------------------------------------------------
// Errors name the file and the line

/// Load with one file changed: the line holding `find` has `find`
/// replaced by `replace`. Returns the error and the 1-based line edited.
fn broken(name: &str, find: &str, replace: &str) -> (ContentError, usize) {
    let original = FILES.iter().find(|(n, _)| *n == name).expect("file").1;
    let line = original
        .lines()
        .position(|l| l.contains(find))
        .expect("pattern")
        + 1;
    let text: Vec<String> = original
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i + 1 == line {
                l.replacen(find, replace, 1)
            } else {
                l.to_string()
            }
        })
        .collect();
    let text = text.join("\n");
    let files: Vec<(&str, &str)> = FILES
        .iter()
        .map(|&(n, t)| {
            if n == name {
                (n, text.as_str())
            } else {
                (n, t)
            }
        })
        .collect();
    match load_classic_tables(&files) {
        Ok(_) => panic!("broken {name} loaded"),
        Err(e) => (e, line),
    }
}

/// Load with one file's text replaced whole.
fn with_text(name: &str, text: &str) -> ContentError {
    let files: Vec<(&str, &str)> = FILES
        .iter()
        .map(|&(n, t)| if n == name { (n, text) } else { (n, t) })
        .collect();
    match load_classic_tables(&files) {
        Ok(_) => panic!("changed {name} loaded"),
        Err(e) => e,
    }
}

fn assert_names(e: &ContentError, file: &str, line: usize, words: &str) {
    assert_eq!((e.file.as_str(), e.line), (file, line), "{e}");
    assert!(e.message.contains(words), "{e}");
}

#[test]
fn crk_1_missing_or_falling_min_pp_names_line() {
    let (e, line) = broken("classic/ranks.toml", "min_pp = 25, ", "");
    assert_names(&e, "classic/ranks.toml", line, "min_pp");
    let (e, line) = broken("classic/ranks.toml", "min_pp = 25", "min_pp = 5");
    assert_names(&e, "classic/ranks.toml", line, "rise");
}

#[test]
fn crk_1_seven_ranks_is_an_error() {
    let text = FILES.iter().find(|(n, _)| *n == "classic/ranks.toml").expect("file").1.replace(
        "]\n",
        "  { rank = 7, min_pp = 130, combat = \"B B B\", defense = \"B\", credits = 14, dt_cards = 2 },\n]\n",
    );
    let e = with_text("classic/ranks.toml", &text);
    assert_eq!(e.file, "classic/ranks.toml");
    assert!(e.message.contains("more than 6 rank cards"), "{e}");
}

#[test]
fn cco_2_a_tech_column_is_refused_by_name() {
    let (e, line) = broken(
        "classic/corporations.toml",
        "cc = \"Yojimbo\" }",
        "cc = \"Yojimbo\", te = \"X\" }",
    );
    assert_names(&e, "classic/corporations.toml", line, "`te`");
}

#[test]
fn cdl_3_praetorian_stalker_or_six_cells_are_errors() {
    let (e, line) = broken(
        "classic/creatures.toml",
        "kind = \"razide\"",
        "kind = \"praetorian stalker\"",
    );
    assert_names(&e, "classic/creatures.toml", line, "expected `razide`");
    let (e, line) = broken(
        "classic/creatures.toml",
        "bands = [\"2R / 3W / 0 / 1\",",
        "bands = [\"2R / 3W / 0 / 1\", \"2R / 3W / 0 / 1\",",
    );
    assert_names(&e, "classic/creatures.toml", line, "needs exactly 3");
}

#[test]
fn cfc_thirteenth_force_card_names_line() {
    let (e, line) = broken(
        "classic/force_cards.toml",
        "numbers = \"12\"",
        "numbers = \"12-13\"",
    );
    assert_names(
        &e,
        "classic/force_cards.toml",
        line,
        "out of range: numbers must be 1..=12",
    );
}

#[test]
fn cev_missing_event_is_reported() {
    let (e, line) = broken("classic/events.toml", "number = 13,", "number = 12,");
    assert_names(&e, "classic/events.toml", line, "duplicate event 12");
}

#[test]
fn cdt_use_listed_twice_or_unknown_names_line() {
    let (e, line) = broken(
        "classic/dt_cards.toml",
        "boon = \"medicine_injector\"",
        "boon = \"medic\"",
    );
    assert_names(&e, "classic/dt_cards.toml", line, "listed twice");
    let (e, line) = broken(
        "classic/dt_cards.toml",
        "boon = \"weak_spot\"",
        "boon = \"weak_spott\"",
    );
    assert_eq!(
        (e.file.as_str(), e.line),
        ("classic/dt_cards.toml", line),
        "{e}"
    );
    let (e, line) = broken(
        "classic/dt_cards.toml",
        "sabotage = \"lost_initiative\"",
        "sabotage = \"weak_spot\"",
    );
    assert_names(&e, "classic/dt_cards.toml", line, "listed twice");
    let (e, _) = broken("classic/dt_cards.toml", "number = 13,", "number = 14,");
    assert!(e.message.contains("numbers must be 1..=13"), "{e}");
}

#[test]
fn csm_failure_must_be_a_dl_credit_gain() {
    let (e, line) = broken(
        "classic/secondary.toml",
        "failure = 1, commander_penalty = 0, text = \"Your team earns 15",
        "failure = -1, commander_penalty = 0, text = \"Your team earns 15",
    );
    assert_names(&e, "classic/secondary.toml", line, "positive");
}

#[test]
fn ceq_weapon_and_equipment_counts_are_checked() {
    let text = FILES
        .iter()
        .find(|(n, _)| *n == "classic/weapons.toml")
        .expect("file")
        .1;
    let cut = text
        .find("[[weapon]]\nid = \"nimrod_autocannon\"")
        .expect("nimrod");
    let e = with_text("classic/weapons.toml", &text[..cut]);
    assert_eq!(e.file, "classic/weapons.toml");
    assert!(e.message.contains("7 weapons; there must be 8"), "{e}");
    let (e, _) = broken("classic/equipment.toml", "  { id = \"teleportal\"", "#");
    assert_eq!(e.file, "classic/equipment.toml");
    assert!(
        e.message.contains("10 equipment cards; there must be 11"),
        "{e}"
    );
}

#[test]
fn cdi_1_weapon_dice_above_nine_are_refused() {
    let (e, line) = broken("classic/weapons.toml", "cc = \"5\"", "cc = \"10\"");
    assert_names(&e, "classic/weapons.toml", line, "0..=9");
}

#[test]
fn classic_file_missing_is_named() {
    let files: Vec<(&str, &str)> = FILES
        .iter()
        .copied()
        .filter(|(n, _)| *n != "classic/dt_cards.toml")
        .collect();
    match load_classic_tables(&files) {
        Ok(_) => panic!("loaded without dt_cards"),
        Err(e) => assert_names(&e, "classic/dt_cards.toml", 0, "file missing"),
    }
}
