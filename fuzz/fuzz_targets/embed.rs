//! A `postMessage` into a framed playground, as the Embed API reads it
//! (`scenario::embed_api::Command::parse`, called by the app's `embed_api` with each field read
//! off the message). The input is the message's data as JSON; anything that is not JSON is a
//! string message. Fields are read as the browser side reads a `JsValue`: a number, a string (a
//! long one only by its length), or anything else. A `dsplay:load` then opens its scenario text
//! as the app's file opener does (`scenario::parse`); what a command yields must keep the API's
//! promises: a seek within a link's range, a speed the menu has.
#![no_main]

use dsplay_fuzz::text;
use libfuzzer_sys::fuzz_target;
use scenario::embed_api::{Command, Field, MAX_SCENARIO, SPEEDS};
use scenario::share::MAX_TIME;
use serde_json::Value;

/// A value as the app's `read` sees the `JsValue` it came from.
fn read(v: Option<&Value>) -> Field {
    match v {
        Some(Value::Number(n)) => n.as_f64().map_or(Field::Other, Field::Number),
        Some(Value::String(s)) if s.encode_utf16().count() > MAX_SCENARIO as usize => {
            Field::LongText
        }
        Some(Value::String(s)) => Field::Text(s.clone()),
        _ => Field::Other,
    }
}

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let message = serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.into()));
    // Not an object: the app reads no `type` at all.
    let kind = match &message {
        Value::Object(o) => read(o.get("type")),
        _ => Field::Other,
    };
    let field = |name: &str| read(message.as_object().and_then(|o| o.get(name)));
    match Command::parse(&kind, field) {
        Ok(Command::Seek(t)) => assert!((0.0..=MAX_TIME).contains(&t), "seek to {t}"),
        Ok(Command::Speed(x)) => assert!(SPEEDS.contains(&x), "speed {x}"),
        Ok(Command::Load(scenario)) => {
            let _ = scenario::parse("scenario.yaml", &scenario);
        }
        Ok(Command::Play | Command::Pause | Command::Step) => {}
        Err(why) => assert!(!why.is_empty()),
    }
});
