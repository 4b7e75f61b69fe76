//! pipeTo unit tests.
