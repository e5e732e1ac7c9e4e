//! The CE tables (ce.md, core DL-1) as loaded from `data/ce/*.toml`.
//!
//! Each test name carries the rule ID it covers. The files are compiled in
//! with `include_str!` and loaded with `load_ce_tables` alone (no tiles or
//! missions).

use citadel_rules::content::ids::{AttackType, Corporation, CreatureKind, Specialty};
use citadel_rules::content::tables::{
    CeTables, DoorCardKind, DtCardKind, EquipmentEffect, EventDuration, EventEffect, WeaponDice,
};
use citadel_rules::content::tables_loader::load_ce_tables;
use citadel_rules::content::ContentError;
use citadel_rules::DieColor::{self, Black as B, Red as R, White as W};

const FILES: &[(&str, &str)] = &[
    ("ce/dice.toml", include_str!("../data/ce/dice.toml")),
    ("ce/ranks.toml", include_str!("../data/ce/ranks.toml")),
    (
        "ce/corporations.toml",
        include_str!("../data/ce/corporations.toml"),
    ),
    ("ce/weapons.toml", include_str!("../data/ce/weapons.toml")),
    (
        "ce/equipment.toml",
        include_str!("../data/ce/equipment.toml"),
    ),
    (
        "ce/creatures.toml",
        include_str!("../data/ce/creatures.toml"),
    ),
    ("ce/terrain.toml", include_str!("../data/ce/terrain.toml")),
    (
        "ce/force_cards.toml",
        include_str!("../data/ce/force_cards.toml"),
    ),
    ("ce/events.toml", include_str!("../data/ce/events.toml")),
    ("ce/dt_cards.toml", include_str!("../data/ce/dt_cards.toml")),
    (
        "ce/door_cards.toml",
        include_str!("../data/ce/door_cards.toml"),
    ),
    (
        "ce/secondary.toml",
        include_str!("../data/ce/secondary.toml"),
    ),
];

fn tables() -> CeTables {
    match load_ce_tables(FILES) {
        Ok(t) => t,
        Err(e) => panic!("embedded CE tables fail to load: {e}"),
    }
}

use CreatureKind::{
    Centurion as Cen, Ezoghoul as Ezo, Legionnaire as Leg, Necromutant as Nec, Nepharite as Nep,
    PraetorianStalker as Sta, Razide as Raz,
};

// ---------------------------------------------------------------------------
// DICE

/// Exact hit probability of a colour as (hit faces, 6).
fn hit_faces(t: &CeTables, c: DieColor) -> usize {
    (1..=6u8).filter(|&f| t.dice.hits(c, f) == 1).count()
}

#[test]
fn dice_1_faces_hit_probabilities() {
    let t = tables();
    // p = faces / 6: white 1/3, red 1/2, black 2/3.
    assert_eq!(hit_faces(&t, W) * 3, 6);
    assert_eq!(hit_faces(&t, R) * 2, 6);
    assert_eq!(hit_faces(&t, B) * 3, 12);
    assert_eq!(t.dice.white, vec![1, 4]);
    assert_eq!(t.dice.red, vec![1, 4, 6]);
    assert_eq!(t.dice.black, vec![1, 2, 4, 5]);
    assert_eq!(t.dice.hit_faces(R), &[1, 4, 6]);
    for c in [W, R, B] {
        assert_eq!(t.dice.hits(c, 0), 0);
        assert_eq!(t.dice.hits(c, 7), 0);
    }
}

// ---------------------------------------------------------------------------
// RNK

#[test]
fn rnk_2_rank_2_is_two_white_one_red() {
    let t = tables();
    let r2 = t.rank(2).expect("rank 2");
    let mut dice = r2.combat.to_vec();
    dice.sort();
    assert_eq!(dice, vec![W, W, R]);
}

#[test]
fn rnk_2_rank_table_values() {
    let t = tables();
    assert_eq!(t.ranks.len(), 12);
    let want: [([DieColor; 3], DieColor, u8, u8); 12] = [
        ([W, W, W], W, 2, 2),
        ([W, W, R], W, 3, 2),
        ([W, R, R], W, 4, 2),
        ([R, R, R], R, 5, 3),
        ([R, R, R], R, 6, 3),
        ([R, R, B], R, 7, 3),
        ([R, B, B], R, 8, 3),
        ([R, B, B], B, 9, 4),
        ([B, B, B], B, 10, 4),
        ([B, B, B], B, 11, 4),
        ([B, B, B], B, 12, 4),
        ([B, B, B], B, 13, 4),
    ];
    for (i, (combat, defense, credits, dt)) in want.into_iter().enumerate() {
        let card = &t.ranks[i];
        assert_eq!(usize::from(card.rank), i + 1);
        assert_eq!(card.combat, combat, "rank {}", i + 1);
        assert_eq!(card.defense, defense, "rank {}", i + 1);
        assert_eq!(card.credits, credits, "rank {}", i + 1);
        assert_eq!(card.dt_cards, dt, "rank {}", i + 1);
    }
    assert!(t.rank(0).is_none() && t.rank(13).is_none());
}

#[test]
fn dlb_1_band_for_rank() {
    let bands: Vec<u8> = (1..=12).map(CeTables::band_for_rank).collect();
    assert_eq!(bands, vec![1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
    assert_eq!(CeTables::band_for_rank(0), 1);
    assert_eq!(CeTables::band_for_rank(20), 6);
}

// ---------------------------------------------------------------------------
// COR

#[test]
fn cor_3_rosters() {
    let t = tables();
    let want = [
        (
            Corporation::Bauhaus,
            ["Max Steiner", "Valerie Duval", "Carl Lind"],
        ),
        (
            Corporation::Capitol,
            ["Big Bob Watts", "Mitch Hunter", "Angelina Drake"],
        ),
        (
            Corporation::Cybertronic,
            ["Vince Diamond", "Coral Beach", "Lori Faust"],
        ),
        (
            Corporation::Imperial,
            ["Edward S. Murdoch", "Sean Gallagher", "Selina Kingsfield"],
        ),
        (
            Corporation::Mishima,
            ["Tatsu", "Oshiro Makiko", "Tetsukage"],
        ),
    ];
    assert_eq!(t.corporations.len(), 5);
    for (i, (id, [fa, cc, te])) in want.into_iter().enumerate() {
        let c = &t.corporations[i];
        assert_eq!(c.id, id);
        assert_eq!(Some(c), t.corporation(id));
        let names: Vec<(&str, Specialty)> = c
            .roster
            .iter()
            .map(|e| (e.name.as_str(), e.specialty))
            .collect();
        assert_eq!(
            names,
            vec![
                (fa, Specialty::Firearms),
                (cc, Specialty::CloseCombat),
                (te, Specialty::Tech)
            ]
        );
    }
}

// ---------------------------------------------------------------------------
// WPN, EQP, EQI

#[test]
fn wpn_rank_and_cost_facts_for_all_13_weapons() {
    let t = tables();
    let want = [
        ("tentacle_kit", "Tentacle Kit", 1, 0),
        ("punisher_short_sword", "Punisher Short Sword", 1, 0),
        ("plasma_carbine", "Plasma Carbine", 1, 0),
        ("manus_kit", "Manus Kit", 3, 2),
        ("violator_sword", "Violator Sword", 3, 3),
        ("deathlockdrum", "Deathlockdrum", 3, 3),
        ("punisher_combo", "Punisher Combo", 4, 2),
        ("tentacle_combo", "Tentacle Combo", 4, 2),
        ("talon_combo", "Talon Combo", 4, 3),
        ("gehenna_puker", "Gehenna Puker", 5, 2),
        ("violator_combo", "Violator Combo", 6, 4),
        ("manus_combo", "Manus Combo", 6, 4),
        ("nimrod_autocannon", "Nimrod Autocannon", 8, 4),
    ];
    assert_eq!(t.weapons.len(), 13);
    for (i, (id, name, rank, cost)) in want.into_iter().enumerate() {
        let w = &t.weapons[i];
        assert_eq!((w.id.as_str(), w.name.as_str()), (id, name));
        assert_eq!((w.rank, w.cost), (rank, cost), "{id}");
        assert_eq!(t.weapon(id), Some(w));
    }
}

fn wd(rank_dice: u8, extra: &[DieColor]) -> WeaponDice {
    WeaponDice {
        rank_dice,
        extra: extra.to_vec(),
    }
}

#[test]
fn wpn_profiles_icons_dice_ranges_and_copies() {
    let t = tables();
    let w = |id: &str| t.weapon(id).expect(id).clone();

    let carbine = w("plasma_carbine");
    assert_eq!(carbine.icons, vec![Specialty::Firearms]);
    assert_eq!(carbine.cc, Some(wd(1, &[])));
    let fa = carbine.fa.expect("carbine FA");
    assert_eq!(
        (fa.dice, fa.min_range, fa.max_range, fa.barrels, fa.line),
        (wd(3, &[]), 2, 16, 1, None)
    );
    assert!(carbine.te.is_none());

    let tentacle = w("tentacle_kit");
    let te = tentacle.te.expect("tentacle TE");
    assert!(te.trap && !te.barbs);
    assert_eq!(te.dice, wd(3, &[]));

    let manus = w("manus_kit");
    let te = manus.te.expect("manus TE");
    assert!(te.trap && te.barbs);
    assert_eq!(manus.copies, Some(2));

    let violator = w("violator_sword");
    assert_eq!(violator.cc, Some(wd(3, &[R])));
    assert!(violator.swing);

    assert_eq!(w("deathlockdrum").fa.expect("FA").dice, wd(3, &[R]));
    let punisher_combo = w("punisher_combo");
    assert_eq!(
        punisher_combo.icons,
        vec![Specialty::CloseCombat, Specialty::Firearms]
    );
    assert_eq!(punisher_combo.fa.expect("FA").max_range, 8);

    let talon = w("talon_combo");
    assert_eq!(talon.icons, vec![Specialty::Firearms, Specialty::Tech]);
    let fa = talon.fa.expect("talon FA");
    assert_eq!((fa.dice, fa.min_range, fa.max_range), (wd(3, &[W]), 2, 10));
    assert_eq!(talon.te.expect("talon TE").dice, wd(3, &[W]));

    assert_eq!(w("gehenna_puker").fa.expect("FA").line, Some(7));
    let violator_combo = w("violator_combo");
    assert!(violator_combo.swing && violator_combo.fa.is_some());
    let manus_combo = w("manus_combo");
    assert_eq!(manus_combo.te.expect("TE").dice, wd(3, &[W]));
    assert_eq!(manus_combo.copies, Some(1));

    let nimrod = w("nimrod_autocannon");
    assert!(nimrod.cc.is_none(), "Nimrod has CC 0");
    let fa = nimrod.fa.expect("Nimrod FA");
    assert_eq!((fa.barrels, fa.min_range, fa.max_range), (2, 4, 12));

    assert_eq!(w("tentacle_combo").copies, Some(1));
    for wpn in &t.weapons {
        assert!(
            wpn.cc.is_some() || wpn.fa.is_some() || wpn.te.is_some(),
            "{}",
            wpn.id
        );
    }
}

#[test]
fn eqp_3_base_weapons_are_unlimited_and_free() {
    let t = tables();
    for w in &t.weapons {
        let base = matches!(
            w.id.as_str(),
            "tentacle_kit" | "punisher_short_sword" | "plasma_carbine"
        );
        assert_eq!(w.copies.is_none(), base, "{}", w.id);
        assert_eq!(w.cost == 0, base, "{}", w.id);
    }
    // Limited weapon copies (authored): 16 cards.
    let limited: u32 = t
        .weapons
        .iter()
        .filter_map(|w| w.copies)
        .map(u32::from)
        .sum();
    assert_eq!(limited, 16);
}

#[test]
fn eqi_rank_and_cost_for_all_items() {
    let t = tables();
    let want: [(&str, u8, u8, u8); 17] = [
        ("Coagulant Autoinjector", 1, 1, 2),
        ("Command Helmet", 1, 1, 2),
        ("Smoke Grenade", 1, 1, 2),
        ("Time Bomb", 1, 1, 2),
        ("Molecular Phaser", 1, 2, 1),
        ("Explosive Ammunition", 2, 2, 1),
        ("Laser Sight", 2, 2, 1),
        ("Glyph Decrypter", 2, 2, 1),
        ("Security Download", 2, 2, 1),
        ("Cybernetic Power Arm", 2, 2, 1),
        ("Chain Blade", 2, 2, 1),
        ("Neural Jack", 2, 2, 1),
        ("Dark Energy Shift", 3, 3, 1),
        ("Combat Medic Unit", 4, 2, 4),
        ("Disruptor", 4, 2, 1),
        ("Rune Inscribed Pommel", 4, 2, 1),
        ("Grenade Launcher", 6, 2, 1),
    ];
    assert_eq!(t.equipment.len(), want.len());
    for (e, (name, rank, cost, copies)) in t.equipment.iter().zip(want) {
        assert_eq!(e.name, name);
        assert_eq!((e.rank, e.cost, e.copies), (rank, cost, copies), "{name}");
        assert_eq!(t.equipment(&e.id), Some(e));
    }
}

#[test]
fn eqi_augments_and_effects() {
    let t = tables();
    let e = |id: &str| t.equipment(id).expect(id).clone();
    let aug = |id: &str| e(id).augment;
    assert_eq!(aug("explosive_ammunition"), Some(AttackType::Firearm));
    assert_eq!(aug("laser_sight"), Some(AttackType::Firearm));
    assert_eq!(aug("disruptor"), Some(AttackType::Firearm));
    assert_eq!(aug("grenade_launcher"), Some(AttackType::Firearm));
    assert_eq!(aug("cybernetic_power_arm"), Some(AttackType::CloseCombat));
    assert_eq!(aug("chain_blade"), Some(AttackType::CloseCombat));
    assert_eq!(aug("rune_inscribed_pommel"), Some(AttackType::CloseCombat));
    assert_eq!(aug("glyph_decrypter"), Some(AttackType::Tech));
    assert_eq!(aug("neural_jack"), Some(AttackType::Tech));
    for id in [
        "smoke_grenade",
        "time_bomb",
        "security_download",
        "combat_medic_unit",
    ] {
        assert_eq!(aug(id), None, "{id}");
    }
    assert_eq!(e("disruptor").effect, EquipmentEffect::NoDefenseDie);
    assert_eq!(
        e("rune_inscribed_pommel").effect,
        EquipmentEffect::NoDefenseDie
    );
    assert_eq!(e("laser_sight").effect, EquipmentEffect::RerollOne);
    assert_eq!(e("neural_jack").effect, EquipmentEffect::ExtraDie);
    assert_eq!(e("time_bomb").effect, EquipmentEffect::TimeBomb);
}

// ---------------------------------------------------------------------------
// DL-1, DLB

#[test]
fn dl_1_pool_counts() {
    let t = tables();
    let pool: Vec<(CreatureKind, u8)> = t.creatures.iter().map(|c| (c.kind, c.pool)).collect();
    assert_eq!(
        pool,
        vec![
            (Leg, 12),
            (Nec, 9),
            (Cen, 3),
            (Raz, 2),
            (Sta, 2),
            (Nep, 1),
            (Ezo, 1)
        ]
    );
}

#[test]
fn dlb_2_band_1_pp_facts() {
    let t = tables();
    for (kind, pp) in [
        (Leg, 1),
        (Nec, 2),
        (Cen, 3),
        (Raz, 4),
        (Sta, 5),
        (Nep, 6),
        (Ezo, 8),
    ] {
        assert_eq!(t.creature_stats(kind, 1).expect("band 1").pp, pp, "{kind}");
    }
}

#[test]
fn dlb_2_nepharite_and_ezoghoul_have_3_actions() {
    let t = tables();
    for c in &t.creatures {
        let want = if matches!(c.kind, Nep | Ezo) { 3 } else { 2 };
        assert_eq!(c.actions, want, "{}", c.kind);
    }
}

#[test]
fn dlb_2_creature_cells() {
    let t = tables();
    assert_eq!(
        t.creatures.iter().map(|c| c.kind).collect::<Vec<_>>(),
        CreatureKind::ALL.to_vec()
    );
    for c in &t.creatures {
        assert_eq!(c.bands.len(), 6, "{}", c.kind);
    }
    let s = |k, b| t.creature_stats(k, b).expect("cell").clone();
    // Legionnaire band 1: 2R / 2W / 0+W / 1.
    let leg1 = s(Leg, 1);
    assert_eq!(
        (leg1.cc, leg1.fa, leg1.dv, leg1.defense_die, leg1.pp),
        (vec![R, R], vec![W, W], 0, Some(W), 1)
    );
    // Necromutant band 2: 2W 1R / 1R 1B / 0+B / 2.
    let nec2 = s(Nec, 2);
    assert_eq!(
        (nec2.cc, nec2.fa, nec2.defense_die),
        (vec![W, W, R], vec![R, B], Some(B))
    );
    // Centurion band 1 has DV 1 and no defense die; Nepharite band 1 DV 2, none.
    assert_eq!((s(Cen, 1).dv, s(Cen, 1).defense_die), (1, None));
    assert_eq!((s(Nep, 1).dv, s(Nep, 1).defense_die), (2, None));
    // Nepharite band 6: 4B / 5R / 2+R / 8.
    let nep6 = s(Nep, 6);
    assert_eq!(
        (nep6.cc, nep6.fa, nep6.dv, nep6.defense_die, nep6.pp),
        (vec![B; 4], vec![R; 5], 2, Some(R), 8)
    );
    // The Ezoghoul never has a firearm attack.
    for b in 1..=6 {
        assert!(s(Ezo, b).fa.is_empty());
    }
    assert_eq!(s(Ezo, 6).pp, 10);
    assert!(t.creature_stats(Leg, 0).is_none() && t.creature_stats(Leg, 7).is_none());
}

#[test]
fn dlb_3_terrain_rows() {
    let t = tables();
    // band, trap dice, terminal, turret, trap, portal DV, PP terminal/turret/trap/portal
    /// band, trap dice, DVs, PPs.
    type Row = (u8, Vec<DieColor>, [u8; 4], [u8; 4]);
    let want: [Row; 6] = [
        (1, vec![W, W, W], [1, 1, 0, 2], [2, 3, 1, 4]),
        (2, vec![W, W, R], [1, 1, 0, 2], [2, 3, 1, 4]),
        (3, vec![W, R, R], [2, 2, 1, 2], [3, 4, 2, 5]),
        (4, vec![R, R, R], [2, 2, 1, 3], [3, 4, 2, 5]),
        (5, vec![R, R, B], [2, 2, 1, 3], [4, 5, 3, 6]),
        (6, vec![R, B, B], [3, 3, 1, 3], [4, 5, 3, 6]),
    ];
    assert_eq!(t.terrain.len(), 6);
    for (band, dice, dv, pp) in want {
        let row = t.terrain(band).expect("band");
        assert_eq!(row.trap_dice, dice, "band {band}");
        assert_eq!(
            [row.terminal_dv, row.turret_dv, row.trap_dv, row.portal_dv],
            dv,
            "band {band}"
        );
        assert_eq!(
            [row.pp_terminal, row.pp_turret, row.pp_trap, row.pp_portal],
            pp,
            "band {band}"
        );
    }
}

/// Number of outcomes, out of 6^(dice + 1), in which `dice` eliminate a
/// creature with `dv` and `die` (DEF-2, DEF-4, DEF-6). Exact counting.
fn elimination_outcomes(t: &CeTables, dice: &[DieColor], dv: u8, die: Option<DieColor>) -> u64 {
    let n = dice.len();
    let mut wins = 0u64;
    for code in 0..6u32.pow(n as u32) {
        let mut c = code;
        let mut hits = 0u8;
        for &d in dice {
            hits += t.dice.hits(d, (c % 6) as u8 + 1);
            c /= 6;
        }
        let damage = hits.saturating_sub(dv);
        for def_face in 1..=6u8 {
            let saved = damage == 1 && die.is_some_and(|d| t.dice.hits(d, def_face) == 1);
            if damage >= 1 && !saved {
                wins += 1;
            }
        }
    }
    wins
}

/// `wins / total` rounded to hundredths, exactly, ties to even.
fn hundredths_half_even(wins: u64, total: u64) -> u64 {
    let q = wins * 100 / total;
    let r2 = (wins * 100 % total) * 2;
    if r2 > total || (r2 == total && q % 2 == 1) {
        q + 1
    } else {
        q
    }
}

#[test]
fn dlb_balance_check_table_recomputes() {
    let t = tables();
    // ce.md §16 balance table, in hundredths: Leg, Necro, Cent, Razide,
    // Stalker, Neph, Ezo. Band 6 shares the "5–6" row.
    let spec: [(u8, [u64; 7]); 6] = [
        (1, [56, 48, 26, 19, 15, 4, 2]),
        (2, [62, 56, 31, 25, 19, 6, 3]),
        (3, [69, 62, 38, 31, 25, 8, 4]),
        (4, [76, 76, 44, 37, 37, 11, 7]),
        (5, [81, 81, 52, 44, 44, 15, 10]),
        (6, [81, 81, 52, 44, 44, 15, 10]),
    ];
    for (band, row) in spec {
        // The band's lower rank: 1, 3, 5, 7, 9, 11.
        let rank = band * 2 - 1;
        assert_eq!(CeTables::band_for_rank(rank), band);
        let dice = t.rank(rank).expect("rank").combat;
        for (kind, want) in CreatureKind::ALL.into_iter().zip(row) {
            let s = t.creature_stats(kind, band).expect("cell");
            let wins = elimination_outcomes(&t, &dice, s.dv, s.defense_die);
            let total = 6u64.pow(4);
            // Within half a hundredth of the printed value...
            let diff = (wins * 200).abs_diff(want * 2 * total);
            assert!(
                diff <= total,
                "band {band} {kind}: {wins}/{total} vs 0.{want:02}"
            );
            // ...and equal to it rounded half to even.
            assert_eq!(
                hundredths_half_even(wins, total),
                want,
                "band {band} {kind}"
            );
        }
    }
    // The worked example: 3 white dice vs a band-1 Legionnaire = 5/9.
    let s = t.creature_stats(Leg, 1).expect("cell");
    assert_eq!(
        elimination_outcomes(&t, &[W, W, W], s.dv, s.defense_die) * 9,
        5 * 1296
    );
}

// ---------------------------------------------------------------------------
// FOR

#[test]
fn for_1_forty_four_cards() {
    let t = tables();
    assert_eq!(t.force_cards.len(), 44);
    for (i, c) in t.force_cards.iter().enumerate() {
        assert_eq!(c.number as usize, i + 1);
        assert_eq!(t.force_card(c.number), Some(c));
    }
    let single = |n: u32| t.force_card(n).expect("card").options.clone();
    for n in (1..=6).chain(15..=17) {
        assert_eq!(single(n), vec![vec![Leg]], "card {n}");
    }
    for n in (7..=11).chain(18..=21).chain(28..=29) {
        assert_eq!(single(n), vec![vec![Nec]], "card {n}");
    }
    for n in (12..=14).chain(22..=23).chain(30..=31) {
        assert_eq!(single(n), vec![vec![Cen]], "card {n}");
    }
    for n in 24..=27 {
        assert_eq!(single(n), vec![vec![Raz]], "card {n}");
    }
    assert_eq!(single(32), vec![vec![Sta]]);
    assert_eq!(single(34), vec![vec![Nep]]);
    assert_eq!(single(35), vec![vec![Ezo]]);
    assert_eq!(single(36), vec![Vec::<CreatureKind>::new()]);
    assert_eq!(single(37), vec![vec![Leg, Leg]]);
}

#[test]
fn for_3_draw_one_more_on_cards_1_to_3_and_15_to_17() {
    let t = tables();
    let drawing: Vec<u32> = t
        .force_cards
        .iter()
        .filter(|c| c.draw_one_more)
        .map(|c| c.number)
        .collect();
    assert_eq!(drawing, vec![1, 2, 3, 15, 16, 17]);
}

#[test]
fn for_3_stop_and_remove_flags() {
    let t = tables();
    let stop: Vec<u32> = t
        .force_cards
        .iter()
        .filter(|c| c.stop)
        .map(|c| c.number)
        .collect();
    assert_eq!(stop, vec![25, 26, 27, 32, 33, 34, 35, 42, 43, 44]);
    let remove: Vec<u32> = t
        .force_cards
        .iter()
        .filter(|c| c.remove)
        .map(|c| c.number)
        .collect();
    assert_eq!(remove, vec![27, 33, 34, 35, 44]);
    let c27 = t.force_card(27).expect("27");
    assert!(c27.stop && c27.remove && !c27.draw_one_more);
}

#[test]
fn for_3_cards_38_to_44_are_choices() {
    let t = tables();
    let opts = |n: u32| t.force_card(n).expect("card").options.clone();
    assert_eq!(opts(38), vec![vec![Cen], vec![Nec]]);
    assert_eq!(opts(39), vec![vec![Cen], vec![Nec]]);
    assert_eq!(opts(40), vec![vec![Cen], vec![Leg, Leg]]);
    assert_eq!(opts(41), vec![vec![Cen], vec![Leg, Leg]]);
    assert_eq!(opts(42), vec![vec![Raz], vec![Cen]]);
    assert_eq!(opts(43), vec![vec![Raz], vec![Nec, Nec]]);
    assert_eq!(opts(44), vec![vec![Raz], vec![Cen, Nec]]);
    for c in &t.force_cards {
        assert_eq!(c.options.len() > 1, c.number >= 38, "card {}", c.number);
    }
}

// ---------------------------------------------------------------------------
// EVE

#[test]
fn eve_thirty_events_in_order() {
    let t = tables();
    assert_eq!(t.events.len(), 30);
    for (i, e) in t.events.iter().enumerate() {
        assert_eq!(e.number as usize, i + 1);
        assert_eq!(t.event(e.number), Some(e));
    }
    assert_eq!(t.event(1).expect("1").name, "Close Combat Phobia");
    assert_eq!(t.event(30).expect("30").name, "Flickering Light");
}

#[test]
fn eve_events_1_to_12_all_have_f() {
    let t = tables();
    for n in 1..=12 {
        let e = t.event(n).expect("event");
        assert!(e.force_draw, "event {n}");
        assert!(e.reinforcements.is_empty(), "event {n}");
        assert_ne!(e.effect, EventEffect::None, "event {n}");
    }
    let with_f: Vec<u32> = t
        .events
        .iter()
        .filter(|e| !e.force_draw)
        .map(|e| e.number)
        .collect();
    assert_eq!(with_f, vec![15, 20, 21, 22]);
}

#[test]
fn eve_event_15_scales_legionnaires_only() {
    let t = tables();
    let e = t.event(15).expect("15");
    let r: Vec<(CreatureKind, u8, bool)> = e
        .reinforcements
        .iter()
        .map(|r| (r.kind, r.count, r.per_corporation))
        .collect();
    assert_eq!(r, vec![(Cen, 1, false), (Nec, 1, false), (Leg, 2, true)]);
    assert!(!e.force_draw);
    assert_eq!(e.effect, EventEffect::None);
    assert!(t
        .events
        .iter()
        .filter(|e| e.number != 15)
        .all(|e| e.reinforcements.iter().all(|r| !r.per_corporation)));
}

#[test]
fn eve_fixed_reinforcements_of_events_20_to_22_and_plus_f() {
    let t = tables();
    let r = |n: u32| -> Vec<(CreatureKind, u8)> {
        t.event(n)
            .expect("event")
            .reinforcements
            .iter()
            .map(|r| (r.kind, r.count))
            .collect()
    };
    assert_eq!(r(20), vec![(Sta, 2)]);
    assert_eq!(r(21), vec![(Nep, 1), (Nec, 1), (Leg, 1)]);
    assert_eq!(r(22), vec![(Ezo, 1), (Leg, 3)]);
    for (n, kind) in [(16, Cen), (17, Raz), (23, Leg), (24, Raz)] {
        assert_eq!(r(n), vec![(kind, 1)], "event {n}");
        assert!(t.event(n).expect("event").force_draw, "event {n}");
    }
}

#[test]
fn eve_effects_and_durations() {
    let t = tables();
    let ev = |n: u32| t.event(n).expect("event").clone();
    assert_eq!(
        (ev(1).effect, ev(1).duration),
        (EventEffect::CloseCombatPhobia, EventDuration::RestOfRound)
    );
    assert_eq!(
        (ev(8).effect, ev(8).duration),
        (
            EventEffect::InterceptedOrders,
            EventDuration::TargetsNextTurn
        )
    );
    assert_eq!(
        (ev(21).effect, ev(21).duration),
        (EventEffect::NephariteTimeRift, EventDuration::DlTurn)
    );
    assert_eq!(
        (ev(28).effect, ev(28).duration),
        (EventEffect::Surrounded, EventDuration::DlStep2)
    );
    assert_eq!(
        (ev(2).effect, ev(2).duration),
        (EventEffect::DarkTeleportation, EventDuration::Instant)
    );
    for n in [15, 18, 19, 20, 30] {
        assert_eq!(ev(n).effect, EventEffect::None, "event {n}");
    }
}

// ---------------------------------------------------------------------------
// DTC-CE, DOR, SEC, CMD

#[test]
fn dtc_ce_2_deck_has_22_cards() {
    let t = tables();
    assert_eq!(t.dt_deck().len(), 22);
    assert_eq!(t.dt_cards.len(), 11);
    assert!(t.dt_cards.iter().all(|c| c.copies == 2));
    let reactions: Vec<DtCardKind> = t
        .dt_cards
        .iter()
        .filter(|c| c.reaction)
        .map(|c| c.kind)
        .collect();
    assert_eq!(
        reactions,
        vec![
            DtCardKind::LastStand,
            DtCardKind::CombatAura,
            DtCardKind::DudRound
        ]
    );
}

#[test]
fn dor_deck_has_6_cards() {
    let t = tables();
    let deck = t.door_deck();
    assert_eq!(deck.len(), 6);
    let count = |k| deck.iter().filter(|&&d| d == k).count();
    assert_eq!(count(DoorCardKind::AllClear), 3);
    assert_eq!(count(DoorCardKind::ShockTrap), 1);
    assert_eq!(count(DoorCardKind::Alarm), 1);
    assert_eq!(count(DoorCardKind::JammedLock), 1);
}

#[test]
fn sec_18_cards_rewards_and_penalties() {
    let t = tables();
    let want: [(i32, i32); 18] = [
        (3, -1),
        (4, -2),
        (4, -2),
        (4, -2),
        (3, -1),
        (4, -2),
        (3, -1),
        (3, -1),
        (3, -2),
        (4, -2),
        (4, -1),
        (3, -1),
        (3, -1),
        (3, -1),
        (4, -2),
        (3, -1),
        (2, -1),
        (3, -1),
    ];
    assert_eq!(t.secondary.len(), 18);
    for (i, (s, f)) in want.into_iter().enumerate() {
        let card = t.secondary(i as u32 + 1).expect("card");
        assert_eq!((card.success, card.failure), (s, f), "card {}", i + 1);
    }
    assert_eq!(t.secondary(17).expect("17").name, "First Blood");
}

#[test]
fn cmd_3_commander_penalty_is_minus_2_on_every_card() {
    let t = tables();
    assert!(t.secondary.iter().all(|s| s.commander_penalty == -2));
}

// ---------------------------------------------------------------------------
// Errors name the file and the line

/// The files with `name` replaced by `text`.
fn with_file(name: &str, text: String) -> Vec<(&'static str, String)> {
    FILES
        .iter()
        .map(|(n, t)| {
            (
                *n,
                if *n == name {
                    text.clone()
                } else {
                    (*t).to_string()
                },
            )
        })
        .collect()
}

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
    let files = with_file(name, text.join("\n"));
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
    match load_ce_tables(&refs) {
        Ok(_) => panic!("broken {name} loaded"),
        Err(e) => (e, line),
    }
}

#[test]
fn rnk_2_toml_syntax_error_names_its_line() {
    let (e, line) = broken("ce/ranks.toml", "{ rank = 5,", "{ rank = 5 ");
    assert_eq!((e.file.as_str(), e.line), ("ce/ranks.toml", line), "{e}");
}

#[test]
fn rnk_2_a_classic_min_pp_in_a_ce_rank_names_line() {
    let (e, line) = broken("ce/ranks.toml", "{ rank = 3, ", "{ rank = 3, min_pp = 25, ");
    assert_eq!((e.file.as_str(), e.line), ("ce/ranks.toml", line), "{e}");
    assert!(e.message.contains("classic field"), "{e}");
}

#[test]
fn rnk_2_ranks_out_of_order_names_line() {
    let (e, line) = broken("ce/ranks.toml", "rank = 7,", "rank = 8,");
    assert_eq!((e.file.as_str(), e.line), ("ce/ranks.toml", line), "{e}");
    assert!(e.message.contains("in order"), "{e}");
}

#[test]
fn for_unknown_creature_names_line() {
    let (e, line) = broken(
        "ce/force_cards.toml",
        "\"2 Legionnaires\" }",
        "\"2 Legionaires\" }",
    );
    assert_eq!(
        (e.file.as_str(), e.line),
        ("ce/force_cards.toml", line),
        "{e}"
    );
    assert!(e.message.contains("unknown creature `Legionaires`"), "{e}");
}

#[test]
fn dlb_2_unknown_creature_kind_names_line() {
    let (e, line) = broken(
        "ce/creatures.toml",
        "kind = \"razide\"",
        "kind = \"gargoyle\"",
    );
    assert_eq!(
        (e.file.as_str(), e.line),
        ("ce/creatures.toml", line),
        "{e}"
    );
    assert!(e.message.contains("unknown creature"), "{e}");
}

#[test]
fn dlb_2_bad_dice_string_names_line() {
    let (e, line) = broken(
        "ce/creatures.toml",
        "\"2W 1R / 3W 1R / 1+W / 3\"",
        "\"2W 1X / 3W 1R / 1+W / 3\"",
    );
    assert_eq!(
        (e.file.as_str(), e.line),
        ("ce/creatures.toml", line),
        "{e}"
    );
    assert!(e.message.contains("bad dice `2W 1X`"), "{e}");
}

#[test]
fn dlb_2_creature_without_6_bands_names_line() {
    let (e, line) = broken("ce/creatures.toml", "  \"5B / — / 2+B / 10\",", "");
    // The error points at the `bands` array of the Ezoghoul.
    let text = FILES
        .iter()
        .find(|(n, _)| *n == "ce/creatures.toml")
        .expect("file")
        .1;
    let bands_line = text
        .lines()
        .take(line)
        .enumerate()
        .filter(|(_, l)| l.starts_with("bands"))
        .last()
        .expect("bands")
        .0
        + 1;
    assert_eq!(
        (e.file.as_str(), e.line),
        ("ce/creatures.toml", bands_line),
        "{e}"
    );
    assert!(e.message.contains("exactly 6"), "{e}");
}

#[test]
fn dice_1_face_out_of_range_names_line() {
    let (e, line) = broken("ce/dice.toml", "red = [1, 4, 6]", "red = [1, 4, 7]");
    assert_eq!((e.file.as_str(), e.line), ("ce/dice.toml", line), "{e}");
}

#[test]
fn wpn_bad_weapon_dice_and_no_attack_name_line() {
    let (e, line) = broken("ce/weapons.toml", "cc = \"3+1R\"", "cc = \"4+1R\"");
    assert_eq!((e.file.as_str(), e.line), ("ce/weapons.toml", line), "{e}");
    assert!(e.message.contains("bad weapon dice"), "{e}");
    // The Punisher Short Sword with no CC has no attack at all.
    let original = FILES
        .iter()
        .find(|(n, _)| *n == "ce/weapons.toml")
        .expect("file")
        .1;
    let id_line = original
        .lines()
        .position(|l| l.contains("\"punisher_short_sword\""))
        .expect("id")
        + 1;
    let cc_line = original
        .lines()
        .skip(id_line)
        .position(|l| l.starts_with("cc ="))
        .expect("cc")
        + id_line;
    let text: Vec<&str> = original
        .lines()
        .enumerate()
        .filter(|(i, _)| *i != cc_line)
        .map(|(_, l)| l)
        .collect();
    let files = with_file("ce/weapons.toml", text.join("\n"));
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let e = load_ce_tables(&refs).expect_err("no attack");
    assert_eq!(
        (e.file.as_str(), e.line),
        ("ce/weapons.toml", id_line),
        "{e}"
    );
    assert!(e.message.contains("no attack"), "{e}");
}

#[test]
fn for_1_duplicate_and_missing_card_numbers_name_line() {
    let (e, line) = broken(
        "ce/force_cards.toml",
        "numbers = \"24\"",
        "numbers = \"23\"",
    );
    assert_eq!(
        (e.file.as_str(), e.line),
        ("ce/force_cards.toml", line),
        "{e}"
    );
    assert!(e.message.contains("duplicate force card 23"), "{e}");
    let (e, _) = broken(
        "ce/force_cards.toml",
        "numbers = \"24\"",
        "numbers = \"45\"",
    );
    assert!(e.message.contains("out of range"), "{e}");
    let (e, _) = broken(
        "ce/force_cards.toml",
        "numbers = \"36\"",
        "numbers = \"37\"",
    );
    assert!(
        e.line > 0 && e.message.contains("duplicate force card 37"),
        "{e}"
    );
}

#[test]
fn eve_missing_and_duplicate_event_numbers_name_line() {
    let (e, line) = broken("ce/events.toml", "{ number = 30,", "{ number = 29,");
    assert_eq!((e.file.as_str(), e.line), ("ce/events.toml", line), "{e}");
    assert!(e.message.contains("duplicate event 29"), "{e}");
    let (e, line) = broken("ce/events.toml", "{ number = 30,", "{ number = 31,");
    assert_eq!((e.file.as_str(), e.line), ("ce/events.toml", line), "{e}");
}

#[test]
fn eve_unknown_effect_names_line() {
    let (e, line) = broken(
        "ce/events.toml",
        "effect = \"mitosis\"",
        "effect = \"meiosis\"",
    );
    assert_eq!((e.file.as_str(), e.line), ("ce/events.toml", line), "{e}");
}

#[test]
fn dtc_ce_2_deck_not_22_is_an_error() {
    let (e, _) = broken(
        "ce/dt_cards.toml",
        "name = \"Medic\", copies = 2",
        "name = \"Medic\", copies = 3",
    );
    assert_eq!(e.file, "ce/dt_cards.toml");
    assert!(e.line > 0 && e.message.contains("must total 22"), "{e}");
}

#[test]
fn dor_deck_not_6_is_an_error() {
    let (e, _) = broken("ce/door_cards.toml", "copies = 3", "copies = 2");
    assert_eq!(e.file, "ce/door_cards.toml");
    assert!(e.line > 0 && e.message.contains("must total 6"), "{e}");
}

#[test]
fn sec_unknown_field_names_line() {
    let (e, line) = broken(
        "ce/secondary.toml",
        "commander_penalty = -2,",
        "commander_penaltyy = -2,",
    );
    assert_eq!(
        (e.file.as_str(), e.line),
        ("ce/secondary.toml", line),
        "{e}"
    );
}

#[test]
fn cor_missing_file_is_an_error() {
    let files: Vec<(&str, &str)> = FILES
        .iter()
        .copied()
        .filter(|(n, _)| *n != "ce/corporations.toml")
        .collect();
    let e = load_ce_tables(&files).expect_err("missing file");
    assert_eq!(e.file, "ce/corporations.toml");
}

// ---------------------------------------------------------------------------
// Typed ids: the engine's ids are checked when the tables load

#[test]
fn eqp_3_a_missing_base_weapon_is_a_load_error_naming_the_file() {
    let (e, _) = broken(
        "ce/weapons.toml",
        "id = \"plasma_carbine\"",
        "id = \"plasma_carbin\"",
    );
    assert_eq!(e.file, "ce/weapons.toml", "{e}");
    assert!(e.message.contains("`plasma_carbine`"), "{e}");
    assert!(e.message.contains("EQP-3"), "{e}");
}

#[test]
fn eqp_2_an_equipment_id_that_repeats_a_weapon_id_names_its_line() {
    let (e, line) = broken(
        "ce/equipment.toml",
        "id = \"smoke_grenade\"",
        "id = \"violator_sword\"",
    );
    assert_eq!(
        (e.file.as_str(), e.line),
        ("ce/equipment.toml", line),
        "{e}"
    );
    assert!(e.message.contains("`violator_sword`"), "{e}");
}

#[test]
fn eqp_2_typed_ids_resolve_both_ways_in_one_lookup() {
    use citadel_rules::content::tables::Item;
    let t = tables();
    for w in &t.weapons {
        let Some(Item::Weapon(id)) = t.item(&w.id) else {
            panic!("{} is not a weapon id", w.id);
        };
        assert_eq!(t.weapon_def(id), w);
        assert_eq!(t.item_name(Item::Weapon(id)), w.id);
    }
    for e in &t.equipment {
        let Some(Item::Equipment(id)) = t.item(&e.id) else {
            panic!("{} is not an equipment id", e.id);
        };
        assert_eq!(t.equipment_def(id), e);
        assert_eq!(t.item_name(Item::Equipment(id)), e.id);
    }
    assert_eq!(t.item("no_such_card"), None);
    assert_eq!(
        t.weapon_def(t.base_weapon(Specialty::Tech)).id,
        "tentacle_kit"
    );
    // Cards by number are indexes with the number checked.
    assert_eq!(t.force_card(44).map(|c| c.number), Some(44));
    assert_eq!(t.event(1).map(|e| e.number), Some(1));
    assert!(t.force_card(0).is_none() && t.force_card(45).is_none());
    assert!(t.event(31).is_none());
}
