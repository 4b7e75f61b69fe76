//! The HTTP server host API (in progress).

use boa_engine::{Context, JsResult};

/// Register the server API.
pub(crate) fn register(_ctx: &mut Context) -> JsResult<()> {
    Ok(())
}
