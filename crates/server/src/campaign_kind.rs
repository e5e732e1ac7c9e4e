//! A game's campaign rules without their types: the campaign API and the
//! ledger hold documents as JSON and reach the rules
//! ([`citadel_game::CampaignRules`]) through [`CampaignKind`], found in
//! the catalogue by the campaign's game kind. Each step parses the stored
//! document into the game's type, applies the rules and writes it back:
//! campaign steps are rare (a join, a mission's start and end), so the
//! parse costs nothing that matters.

use crate::error::ServerError;
use crate::registry::Reserved;
use crate::session::{ReservedSeat, Session, SessionConfig, SessionError};
use citadel_game::{CampaignRefusal, CampaignRules, Game, Member, NextGame, Recorded};
use citadel_protocol::{Json, TableOptions};
use serde_json::Value;
use std::fmt;
use std::marker::PhantomData;

impl From<CampaignRefusal> for ServerError {
    fn from(e: CampaignRefusal) -> Self {
        match e {
            CampaignRefusal::Invalid(m) => ServerError::BadRequest(m),
            CampaignRefusal::Conflict(m) => ServerError::Conflict(m),
        }
    }
}

/// A campaign's next game, made by its rules and not yet created: the
/// platform creates the table ([`Self::start`]), then makes it the
/// campaign's game in play ([`Self::begin`]).
pub trait PreparedGame: Send + Sync {
    /// The table's options.
    fn options(&self) -> TableOptions;
    /// The started session of the game, under `code`.
    ///
    /// # Errors
    /// A setup the rules refuse (a bug of the campaign rules).
    fn start(&self, code: String, config: SessionConfig) -> Result<Reserved, SessionError>;
    /// Record in `doc` that `game` is the campaign's game in play; the
    /// answer to the player who asked for it.
    ///
    /// # Errors
    /// A document that does not parse.
    fn begin(&self, doc: &mut Value, game: &str) -> Result<Value, ServerError>;
}

/// A game's campaign rules, over JSON documents.
pub trait CampaignKind: Send + Sync + fmt::Debug {
    /// A new campaign from the creation request's body: its name and
    /// document.
    ///
    /// # Errors
    /// A body that is not the game's terms (400), terms the rules refuse.
    fn create(&self, body: Value) -> Result<(String, Value), ServerError>;
    /// Add a player from the join request's body.
    ///
    /// # Errors
    /// A body that is not the game's, a refusal of the rules.
    fn join(&self, doc: &mut Value, member: Member, body: Value) -> Result<usize, ServerError>;
    /// The player whose token hashes to `hash`.
    ///
    /// # Errors
    /// A document that does not parse.
    fn player_by_token_hash(&self, doc: &Value, hash: &str) -> Result<Option<usize>, ServerError>;
    /// The next game, from the request's body and fresh `entropy`.
    ///
    /// # Errors
    /// A body that is not the game's, a refusal of the rules.
    fn next(
        &self,
        doc: &Value,
        body: Value,
        entropy: u64,
    ) -> Result<Box<dyn PreparedGame>, ServerError>;
    /// The code of the game in play.
    ///
    /// # Errors
    /// A document that does not parse.
    fn in_play(&self, doc: &Value) -> Result<Option<String>, ServerError>;
    /// The game in play ended without a result.
    ///
    /// # Errors
    /// A document that does not parse.
    fn abandoned(&self, doc: &mut Value, game: &str) -> Result<bool, ServerError>;
    /// The game in play finished with this result (the stored JSON).
    ///
    /// # Errors
    /// A document or result that does not parse, a refusal of the rules.
    fn apply_result(
        &self,
        doc: &mut Value,
        game: &str,
        result: &Value,
    ) -> Result<Option<Recorded>, ServerError>;
    /// Whether the campaign is over.
    ///
    /// # Errors
    /// A document that does not parse.
    fn is_finished(&self, doc: &Value) -> Result<bool, ServerError>;
    /// A game-specific step between games; `Ok(None)` when the rules
    /// have none of that name.
    ///
    /// # Errors
    /// A refusal of the rules.
    fn act(
        &self,
        doc: &mut Value,
        player: usize,
        action: &str,
        body: &Value,
    ) -> Result<Option<Value>, ServerError>;
    /// The standings.
    ///
    /// # Errors
    /// A document that does not parse.
    fn standings(&self, doc: &Value, id: &str, code: &str) -> Result<Value, ServerError>;
}

/// [`CampaignKind`] of the rules `C`.
pub struct CampaignsOf<C: CampaignRules>(PhantomData<fn() -> C>);

impl<C: CampaignRules> CampaignsOf<C> {
    /// The rules `C`, without their types.
    pub fn new() -> Self {
        CampaignsOf(PhantomData)
    }
}

impl<C: CampaignRules> Default for CampaignsOf<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C: CampaignRules> fmt::Debug for CampaignsOf<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CampaignsOf({})", <C::Game as Game>::ID)
    }
}

/// A stored document: a failure to read one is the server's (its own
/// JSON), not the client's.
fn doc_of<C: CampaignRules>(doc: &Value) -> Result<C::Doc, ServerError> {
    serde_json::from_value(doc.clone())
        .map_err(|e| ServerError::Internal(anyhow::anyhow!("campaign document: {e}")))
}

fn store_doc<C: CampaignRules>(doc: &C::Doc, into: &mut Value) -> Result<(), ServerError> {
    *into = serde_json::to_value(doc)
        .map_err(|e| ServerError::Internal(anyhow::anyhow!("campaign document: {e}")))?;
    Ok(())
}

/// A request body: a body of the wrong shape is the client's (400).
fn body_of<T: serde::de::DeserializeOwned>(body: Value) -> Result<T, ServerError> {
    serde_json::from_value(body).map_err(|e| ServerError::BadRequest(e.to_string()))
}

/// Change the stored document with `f`, writing it back only on success.
fn change<C: CampaignRules, T>(
    doc: &mut Value,
    f: impl FnOnce(&mut C::Doc) -> Result<T, ServerError>,
) -> Result<T, ServerError> {
    let mut typed = doc_of::<C>(doc)?;
    let out = f(&mut typed)?;
    store_doc::<C>(&typed, doc)?;
    Ok(out)
}

impl<C: CampaignRules> CampaignKind for CampaignsOf<C> {
    fn create(&self, body: Value) -> Result<(String, Value), ServerError> {
        let doc = C::create(body_of(body)?)?;
        let mut json = Value::Null;
        store_doc::<C>(&doc, &mut json)?;
        Ok((C::name(&doc).to_string(), json))
    }

    fn join(&self, doc: &mut Value, member: Member, body: Value) -> Result<usize, ServerError> {
        let join = body_of(body)?;
        change::<C, _>(doc, |d| Ok(C::join(d, member, join)?))
    }

    fn player_by_token_hash(&self, doc: &Value, hash: &str) -> Result<Option<usize>, ServerError> {
        Ok(C::player_by_token_hash(&doc_of::<C>(doc)?, hash))
    }

    fn next(
        &self,
        doc: &Value,
        body: Value,
        entropy: u64,
    ) -> Result<Box<dyn PreparedGame>, ServerError> {
        // An empty body asks for the rules' default.
        let request = if body.is_null() {
            C::Next::default()
        } else {
            body_of(body)?
        };
        let next = C::next(&doc_of::<C>(doc)?, request, entropy)?;
        Ok(Box::new(Prepared::<C> { next }))
    }

    fn in_play(&self, doc: &Value) -> Result<Option<String>, ServerError> {
        Ok(C::in_play(&doc_of::<C>(doc)?).map(str::to_string))
    }

    fn abandoned(&self, doc: &mut Value, game: &str) -> Result<bool, ServerError> {
        change::<C, _>(doc, |d| Ok(C::abandoned(d, game)))
    }

    fn apply_result(
        &self,
        doc: &mut Value,
        game: &str,
        result: &Value,
    ) -> Result<Option<Recorded>, ServerError> {
        let summary: <C::Game as Game>::Summary = serde_json::from_value(result.clone())
            .map_err(|e| ServerError::Internal(anyhow::anyhow!("result of {game}: {e}")))?;
        change::<C, _>(doc, |d| Ok(C::apply_result(d, game, &summary)?))
    }

    fn is_finished(&self, doc: &Value) -> Result<bool, ServerError> {
        Ok(C::is_finished(&doc_of::<C>(doc)?))
    }

    fn act(
        &self,
        doc: &mut Value,
        player: usize,
        action: &str,
        body: &Value,
    ) -> Result<Option<Value>, ServerError> {
        change::<C, _>(doc, |d| match C::act(d, player, action, body) {
            None => Ok(None),
            Some(answer) => Ok(Some(answer?)),
        })
    }

    fn standings(&self, doc: &Value, id: &str, code: &str) -> Result<Value, ServerError> {
        Ok(C::standings(&doc_of::<C>(doc)?, id, code))
    }
}

/// The next game of the rules `C`, typed.
struct Prepared<C: CampaignRules> {
    next: NextGame<C::Game>,
}

impl<C: CampaignRules> PreparedGame for Prepared<C> {
    fn options(&self) -> TableOptions {
        TableOptions {
            kind: Some(<C::Game as Game>::ID.to_string()),
            turn_seconds: None,
            // A campaign's games are casual: the campaign is their measure.
            rated: false,
            listed: false,
            game: match serde_json::to_value(&self.next.options) {
                Ok(Value::Object(o)) => o,
                _ => serde_json::Map::new(),
            },
        }
    }

    fn start(&self, code: String, config: SessionConfig) -> Result<Reserved, SessionError> {
        let seats = self
            .next
            .seats
            .iter()
            .map(|p| ReservedSeat {
                name: p.member.name.clone(),
                choice: p.choice.as_ref().map(Json::of),
                token_hash: p.member.token_hash.clone(),
                account: p.member.account.clone(),
            })
            .collect();
        let (session, _) = Session::<C::Game>::reserved(
            code,
            self.options(),
            config,
            seats,
            &self.next.setup,
            self.next.seed,
            0,
        )?;
        Ok(Reserved {
            session: Box::new(session),
            setup: Json::of(&self.next.setup),
            seed: self.next.seed,
        })
    }

    fn begin(&self, doc: &mut Value, game: &str) -> Result<Value, ServerError> {
        change::<C, _>(doc, |d| Ok(C::begin(d, game, &self.next)))
    }
}
