//! A game's session without its type, and the games this server plays.
//!
//! [`Session`] is generic over the game (`citadel_game::Game`); the rest
//! of the server — the registry, a game's task, persistence, replays —
//! holds a [`Table`] (any game's session) and reaches each game through
//! its [`Kind`], found by the id every record and table names
//! (Colyseus's room registry by name). [`Games`] is the catalogue: the
//! binary lists the games it plays, the platform names none.

use crate::campaign_kind::{CampaignKind, CampaignsOf};
use crate::replay::{self, Check, Replay, ReplayError};
use crate::session::{
    read_options, BotMaker, Input, LobbyDoc, Millis, Output, Session, SessionConfig, SessionError,
    StoredGame,
};
use citadel_game::{CampaignRules, CatalogueGame, Game, OptionError, RulesVersion, SeatPlan};
use citadel_protocol::{Json, TableOptions};
use citadel_store::{CommandRecord, GameRecord};
use std::fmt;
use std::sync::Arc;

/// A game's session, whatever the game: what the shell drives.
pub trait Table: Send + fmt::Debug {
    /// [`Session::handle`].
    fn handle(&mut self, input: Input, now: Millis) -> Vec<Output>;
    /// [`Session::next_wake`].
    fn next_wake(&self) -> Option<Millis>;
    /// [`Session::lobby_document`].
    fn lobby_document(&self) -> LobbyDoc;
    /// [`Session::players_connected`].
    fn players_connected(&self) -> bool;
    /// [`Session::started`].
    fn started(&self) -> bool;
    /// Has the game started and ended?
    fn finished(&self) -> bool;
    /// [`Session::code`].
    fn code(&self) -> &str;
    /// The game's kind.
    fn kind(&self) -> &'static str;
    /// [`Session::event_count`].
    fn event_count(&self) -> u64;
    /// [`Session::connections`].
    fn connections(&self) -> usize;
    /// [`Session::spectators`].
    fn spectators(&self) -> u32;
    /// [`Session::to_act`].
    fn to_act(&self) -> Vec<u8>;
    /// The game's summary of its end, once it has ended.
    fn summary(&self) -> Option<Json>;
    /// The checksum of the game's state, once started.
    fn checksum(&self) -> Option<String>;
}

/// Any game's session.
pub type AnySession = Box<dyn Table>;

impl<G: Game> Table for Session<G> {
    fn handle(&mut self, input: Input, now: Millis) -> Vec<Output> {
        Session::handle(self, input, now)
    }
    fn next_wake(&self) -> Option<Millis> {
        Session::next_wake(self)
    }
    fn lobby_document(&self) -> LobbyDoc {
        Session::lobby_document(self)
    }
    fn players_connected(&self) -> bool {
        Session::players_connected(self)
    }
    fn started(&self) -> bool {
        Session::started(self)
    }
    fn finished(&self) -> bool {
        self.game().is_some_and(Game::is_finished)
    }
    fn code(&self) -> &str {
        Session::code(self)
    }
    fn kind(&self) -> &'static str {
        G::ID
    }
    fn event_count(&self) -> u64 {
        Session::event_count(self)
    }
    fn connections(&self) -> usize {
        Session::connections(self)
    }
    fn spectators(&self) -> u32 {
        Session::spectators(self)
    }
    fn to_act(&self) -> Vec<u8> {
        Session::to_act(self)
    }
    fn summary(&self) -> Option<Json> {
        self.game()
            .filter(|g| g.is_finished())
            .map(|g| Json::of(&g.summary()))
    }
    fn checksum(&self) -> Option<String> {
        self.game().map(Game::checksum)
    }
}

/// One game the server plays, without its type.
pub trait Kind: Send + Sync + fmt::Debug {
    /// Its catalogue id (`citadel_game::Game::ID`).
    fn id(&self) -> &'static str;
    /// The rules this server plays it by.
    fn rules(&self) -> RulesVersion;
    /// How `GET /api/catalogue` lists it.
    fn describe(&self) -> CatalogueGame;
    /// Check a table's options (the game's own; the platform checks its
    /// turn limit): the seats they make.
    ///
    /// # Errors
    /// The option at fault.
    fn check_options(&self, options: &TableOptions) -> Result<SeatPlan, OptionError>;
    /// `citadel_game::Game::check_unversioned`.
    ///
    /// # Errors
    /// Why a record from before rules versions cannot be checked.
    fn check_unversioned(&self, options: &TableOptions) -> Result<(), String>;
    /// The game's public document `name` (`citadel_game::Game::documents`),
    /// built on first asking and kept; `None` if the game has none of that
    /// name, `Some(Err)` if it cannot be built.
    fn document(&self, name: &str) -> Option<Result<&str, &str>>;
    /// A new table ([`Session::new`]).
    ///
    /// # Errors
    /// Options that are not the game's.
    fn new_session(
        &self,
        code: String,
        options: TableOptions,
        seed: u64,
        config: SessionConfig,
    ) -> Result<AnySession, SessionError>;
    /// A stored game brought back ([`Session::restore_checked`]).
    ///
    /// # Errors
    /// As [`Session::restore_checked`].
    fn restore(
        &self,
        stored: StoredGame<'_>,
        now: Millis,
        config: SessionConfig,
    ) -> Result<AnySession, SessionError>;
    /// Steps `from..from + count` of a stored game, as a spectator saw
    /// them ([`crate::replay`]).
    ///
    /// # Errors
    /// As [`crate::replay::replay_checked`].
    fn replay(
        &self,
        game: &GameRecord,
        commands: &[CommandRecord],
        from: u64,
        count: u64,
        check: Check,
    ) -> Result<Replay, ReplayError>;
}

/// The [`Kind`] of a game type, with the maker of its bots.
struct KindOf<G: Game> {
    bots: BotMaker<G>,
    /// Its documents, built on first asking.
    documents: std::sync::OnceLock<Vec<(&'static str, Result<String, String>)>>,
}

impl<G: Game> fmt::Debug for KindOf<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("KindOf")
    }
}

impl<G: Game> Kind for KindOf<G> {
    fn id(&self) -> &'static str {
        G::ID
    }

    fn rules(&self) -> RulesVersion {
        G::rules_version()
    }

    fn describe(&self) -> CatalogueGame {
        CatalogueGame {
            id: G::ID.to_string(),
            name: G::NAME.to_string(),
            rules: G::rules_version(),
            options: G::option_specs(),
            campaigns: false,
        }
    }

    fn check_options(&self, options: &TableOptions) -> Result<SeatPlan, OptionError> {
        read_options::<G>(options).map(|(_, plan)| plan)
    }

    fn document(&self, name: &str) -> Option<Result<&str, &str>> {
        // All at once: a game has a handful, and they never change while
        // the server runs.
        let built = self.documents.get_or_init(|| {
            G::documents()
                .into_iter()
                .map(|d| (d.name, (d.build)()))
                .collect()
        });
        built
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, doc)| doc.as_deref().map_err(String::as_str))
    }

    fn check_unversioned(&self, options: &TableOptions) -> Result<(), String> {
        let (typed, _) = read_options::<G>(options).map_err(|e| e.to_string())?;
        G::check_unversioned(&typed)
    }

    fn new_session(
        &self,
        code: String,
        options: TableOptions,
        seed: u64,
        config: SessionConfig,
    ) -> Result<AnySession, SessionError> {
        Ok(Box::new(
            Session::<G>::new(code, options, seed, config)?.with_bots(self.bots),
        ))
    }

    fn restore(
        &self,
        stored: StoredGame<'_>,
        now: Millis,
        config: SessionConfig,
    ) -> Result<AnySession, SessionError> {
        Ok(Box::new(
            Session::<G>::restore_checked(stored, now, config)?.with_bots(self.bots),
        ))
    }

    fn replay(
        &self,
        game: &GameRecord,
        commands: &[CommandRecord],
        from: u64,
        count: u64,
        check: Check,
    ) -> Result<Replay, ReplayError> {
        replay::run::<G>(game, commands, from, count, check)
    }
}

/// The games a server plays, by id: the first is the one a table gets
/// when its options name none.
#[derive(Clone, Debug, Default)]
pub struct Games {
    kinds: Vec<Arc<dyn Kind>>,
    /// The campaign rules of the games that have campaigns, by game id.
    campaigns: Vec<(&'static str, Arc<dyn CampaignKind>)>,
}

/// Two games of one catalogue share an id.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("two games with the id {0}")]
pub struct DuplicateGame(pub &'static str);

impl Games {
    /// No games yet.
    pub fn new() -> Self {
        Games::default()
    }

    /// Add game `G`.
    ///
    /// # Errors
    /// A game with the same id is listed already.
    pub fn with<G: Game>(self) -> Result<Self, DuplicateGame> {
        self.with_bots::<G>(|game, seat, seed| game.bot(seat, seed))
    }

    /// Add game `G`, whose seats' bots `bots` makes (bots that live
    /// beside the game's rules crate rather than in it).
    ///
    /// # Errors
    /// A game with the same id is listed already.
    pub fn with_bots<G: Game>(mut self, bots: BotMaker<G>) -> Result<Self, DuplicateGame> {
        if self.get(G::ID).is_some() {
            return Err(DuplicateGame(G::ID));
        }
        self.kinds.push(Arc::new(KindOf::<G> {
            bots,
            documents: std::sync::OnceLock::new(),
        }));
        Ok(self)
    }

    /// Add the campaign rules `C` of a game already listed.
    ///
    /// # Errors
    /// The game is not listed, or has campaign rules already.
    pub fn with_campaigns<C: CampaignRules>(mut self) -> Result<Self, DuplicateGame> {
        let id = <C::Game as Game>::ID;
        if self.get(id).is_none() || self.campaigns_of(id).is_some() {
            return Err(DuplicateGame(id));
        }
        self.campaigns.push((id, Arc::new(CampaignsOf::<C>::new())));
        Ok(self)
    }

    /// The campaign rules of the game with this id, if it has campaigns.
    pub fn campaigns_of(&self, id: &str) -> Option<&Arc<dyn CampaignKind>> {
        self.campaigns
            .iter()
            .find(|(kind, _)| *kind == id)
            .map(|(_, c)| c)
    }

    /// The game with this id.
    pub fn get(&self, id: &str) -> Option<&Arc<dyn Kind>> {
        self.kinds.iter().find(|k| k.id() == id)
    }

    /// The game a table gets when its options name none.
    pub fn first(&self) -> Option<&Arc<dyn Kind>> {
        self.kinds.first()
    }

    /// The game of a table's options: the one they name, or the first.
    pub fn of(&self, options: &TableOptions) -> Option<&Arc<dyn Kind>> {
        match &options.kind {
            Some(id) => self.get(id),
            None => self.first(),
        }
    }

    /// Every game, as `GET /api/catalogue` lists them.
    pub fn listing(&self) -> Vec<CatalogueGame> {
        self.kinds
            .iter()
            .map(|k| CatalogueGame {
                campaigns: self.campaigns_of(k.id()).is_some(),
                ..k.describe()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use citadel_game::OptionKind;
    use citadel_test_game::Tricks;
    use serde_json::json;

    fn options(json: serde_json::Value) -> TableOptions {
        serde_json::from_value(json).expect("table options")
    }

    #[test]
    fn a_catalogue_lists_its_games_and_checks_their_options() {
        let games = Games::new().with::<Tricks>().expect("one game");
        let listing = games.listing();
        assert_eq!(listing.len(), 1);
        assert_eq!(listing[0].id, "tricks");
        assert_eq!(listing[0].rules.engine, 1);
        assert!(matches!(
            listing[0].options[0].kind,
            OptionKind::Integer { min: 2, max: 4, .. }
        ));
        let tricks = games.get("tricks").expect("listed");
        let check = |o| tricks.check_options(&options(o));
        assert_eq!(check(json!({ "seats": 3 })).map(|p| p.players), Ok(3));
        assert_eq!(
            check(json!({ "seats": 9 })).map_err(|e| e.field),
            Err("seats")
        );
        assert_eq!(
            check(json!({ "mission": "x" })).map_err(|e| e.field),
            Err("options"),
            "JSON that is not the game's options names no field of them"
        );
        assert!(games.get("siege").is_none());
        assert_eq!(
            games.of(&options(json!({}))).map(|k| k.id()),
            Some("tricks"),
            "a table that names no game gets the first"
        );
        assert!(games.of(&options(json!({ "kind": "chess" }))).is_none());
        let json = serde_json::to_value(&listing).expect("serializes");
        assert_eq!(json[0]["options"][0]["kind"], "integer");
        assert_eq!(json[0]["options"][0]["name"], "seats");
    }

    #[test]
    fn two_games_may_not_share_an_id() {
        let twice = Games::new()
            .with::<Tricks>()
            .and_then(Games::with::<Tricks>);
        assert_eq!(twice.err(), Some(DuplicateGame("tricks")));
    }
}
