//! Every option a table is made with has a range (issue 17, item 8):
//! the platform's turn limit and the game's own options (here Siege's),
//! each refusal naming the field at fault.

use citadel_protocol::TableOptions;
use citadel_server::options::OptionError;

fn options(json: &str) -> TableOptions {
    serde_json::from_str(json).expect("options")
}

fn validate(o: &TableOptions) -> Result<(), OptionError> {
    citadel_server::options::validate(citadel::catalogue(), o).map(|_| ())
}

#[test]
fn every_option_is_range_checked() {
    let ok = r#"{"mission":"ce-c1m1","seats":2,"dark_legion":{"mode":"drawn"},"turn_seconds":120}"#;
    assert_eq!(validate(&options(ok)), Ok(()));
    let named = r#"{"kind":"siege","mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"ai"}}"#;
    assert_eq!(validate(&options(named)), Ok(()));
    for (json, field) in [
        (
            r#"{"kind":"chess","mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"ai"}}"#,
            "kind",
        ),
        (
            r#"{"mission":"nope","seats":1,"dark_legion":{"mode":"ai"}}"#,
            "mission",
        ),
        (
            r#"{"mission":"ce-c1m1","seats":0,"dark_legion":{"mode":"ai"}}"#,
            "seats",
        ),
        (
            r#"{"mission":"ce-c1m1","seats":6,"dark_legion":{"mode":"ai"}}"#,
            "seats",
        ),
        (
            r#"{"mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"drawn"}}"#,
            "seats",
        ),
        (
            r#"{"mission":"ce-c1m1","seats":2,"dark_legion":{"mode":"seat","seat":2}}"#,
            "dark_legion",
        ),
        (
            r#"{"mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"ai"},"starting_rank":0}"#,
            "starting_rank",
        ),
        (
            r#"{"mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"ai"},"starting_rank":13}"#,
            "starting_rank",
        ),
        (
            r#"{"mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"ai"},"turn_seconds":0}"#,
            "turn_seconds",
        ),
        (
            r#"{"mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"ai"},"turn_seconds":9}"#,
            "turn_seconds",
        ),
        (
            r#"{"mission":"ce-c1m1","seats":1,"dark_legion":{"mode":"ai"},"turn_seconds":3601}"#,
            "turn_seconds",
        ),
    ] {
        assert_eq!(
            validate(&options(json)).map_err(|e| e.field),
            Err(field),
            "{json}"
        );
    }
    for t in [10, 3600] {
        let json = format!(
            r#"{{"mission":"ce-c1m1","seats":1,"dark_legion":{{"mode":"ai"}},"turn_seconds":{t}}}"#
        );
        assert_eq!(validate(&options(&json)), Ok(()));
    }
}
