//! A game's payload inside the envelope: JSON the platform carries
//! without looking inside (a command, an event, a view, a rejection).
//!
//! Sent, it is text made once from the game's own serde type and written
//! into every message as it is (`serde_json::value::RawValue`), so one
//! view serialized for all spectators is not serialized again per
//! message. Received, it is any JSON value; the game parses it into its
//! type ([`Json::parse`]) and answers a typed error if it is not one.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

/// JSON text of a game's payload.
#[derive(Clone)]
pub struct Json(Arc<RawValue>);

impl Json {
    /// `value` as JSON. A game's payloads always serialize (no maps with
    /// non-string keys); should one not, it becomes `null`, which the
    /// client shows as a payload it cannot read rather than losing the
    /// whole message.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Json {
        let raw = serde_json::value::to_raw_value(value).unwrap_or_else(|_| Json::null_raw());
        Json(Arc::from(raw))
    }

    /// `null`.
    pub fn null() -> Json {
        Json(Arc::from(Json::null_raw()))
    }

    fn null_raw() -> Box<RawValue> {
        RawValue::NULL.to_owned()
    }

    /// JSON text, checked.
    ///
    /// # Errors
    /// The text is not JSON.
    pub fn from_text(text: String) -> Result<Json, serde_json::Error> {
        RawValue::from_string(text).map(|raw| Json(Arc::from(raw)))
    }

    /// The payload as the game's type `T`.
    ///
    /// # Errors
    /// It is not a `T`.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self.0.get())
    }

    /// The JSON text.
    pub fn text(&self) -> &str {
        self.0.get()
    }

    /// The payload as a JSON value.
    pub fn value(&self) -> Value {
        self.parse().unwrap_or(Value::Null)
    }
}

impl fmt::Debug for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.get())
    }
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.get())
    }
}

/// Equal as JSON values (key order and spacing aside).
impl PartialEq for Json {
    fn eq(&self, other: &Json) -> bool {
        self.0.get() == other.0.get() || self.value() == other.value()
    }
}

impl Eq for Json {}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        // Through a `Value`: a raw value cannot be read inside the
        // internally tagged messages, which serde buffers first.
        let value = Value::deserialize(d)?;
        serde_json::value::to_raw_value(&value)
            .map(|raw| Json(Arc::from(raw)))
            .map_err(serde::de::Error::custom)
    }
}

impl From<Value> for Json {
    fn from(value: Value) -> Json {
        Json::of(&value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    #[serde(tag = "type")]
    enum Msg {
        Carry { payload: Json },
    }

    #[test]
    fn a_payload_rides_inside_a_tagged_message_both_ways() {
        let msg = Msg::Carry {
            payload: Json::of(&serde_json::json!({"b": [1, 2], "a": "x"})),
        };
        let text = serde_json::to_string(&msg).expect("serializes");
        assert_eq!(text, r#"{"type":"Carry","payload":{"a":"x","b":[1,2]}}"#);
        let back: Msg = serde_json::from_str(&text).expect("parses");
        assert_eq!(back, msg);
        let Msg::Carry { payload } = back;
        assert_eq!(payload.parse::<Value>().expect("json")["b"][1], 2);
        assert!(payload.parse::<u8>().is_err());
        assert_ne!(payload, Json::null());
    }
}
