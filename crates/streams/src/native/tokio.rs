//! The async adapters for tokio's I/O traits (cargo feature `tokio`): a
//! `tokio::io::AsyncRead` as a byte `ReadableStream`, a `tokio::io::AsyncWrite` as a
//! `WritableStream`, with the behaviour of their `futures` counterparts
//! ([`super::readable_stream_from_async_read`], [`super::writable_stream_from_async_write`]).
//! The futures are polled by the context's driver, on the context's thread; tokio's wakers
//! (e.g. from a runtime's I/O driver thread) wake it.

use std::io;
use std::pin::Pin;
use std::task::{Context as TaskContext, Poll};

use boa_engine::{Context, JsObject, JsResult};

use super::ReadableStream;

/// A tokio reader or writer seen through the `futures` I/O traits.
struct Compat<T>(Pin<Box<T>>);

impl<T: tokio::io::AsyncRead> futures::AsyncRead for Compat<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        buf: &mut [u8],
    ) -> Poll<io::Result<usize>> {
        let mut read_buf = tokio::io::ReadBuf::new(buf);
        match self.get_mut().0.as_mut().poll_read(cx, &mut read_buf) {
            Poll::Ready(Ok(())) => Poll::Ready(Ok(read_buf.filled().len())),
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: tokio::io::AsyncWrite> futures::AsyncWrite for Compat<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().0.as_mut().poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<io::Result<()>> {
        self.get_mut().0.as_mut().poll_flush(cx)
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<io::Result<()>> {
        self.get_mut().0.as_mut().poll_shutdown(cx)
    }
}

/// A byte `ReadableStream` reading from a tokio `reader` (see
/// [`super::readable_stream_from_async_read`]: BYOB reads fill the view in place).
///
/// ```
/// use boa_engine::Context;
/// use boa_streams::native::{block_on, tokio::readable_stream_from_async_read, StreamReader};
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let stream = readable_stream_from_async_read(&b"tokio bytes"[..], 64, &mut context).unwrap();
/// let reader = StreamReader::new(&stream, &mut context).unwrap();
/// let all = reader.read_all(&mut context);
/// assert_eq!(&block_on(&mut context, all).unwrap().unwrap()[..], b"tokio bytes");
/// ```
pub fn readable_stream_from_async_read<R>(
    reader: R,
    chunk_size: usize,
    ctx: &mut Context,
) -> JsResult<JsObject<ReadableStream>>
where
    R: tokio::io::AsyncRead + 'static,
{
    super::readable_stream_from_async_read(Compat(Box::pin(reader)), chunk_size, ctx)
}

/// A `WritableStream` writing into a tokio `writer` (see
/// [`super::writable_stream_from_async_write`]: each write is written whole and flushed;
/// `close()` shuts `writer` down; `abort()` drops it).
///
/// ```
/// use boa_engine::Context;
/// use boa_streams::native::{block_on, tokio::writable_stream_from_async_write, StreamWriter};
/// use bytes::Bytes;
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let (rust_end, js_end) = tokio::io::duplex(64);
/// let stream = writable_stream_from_async_write(js_end, &mut context).unwrap();
/// let writer = StreamWriter::new(&stream, &mut context).unwrap();
/// let written = writer.write_bytes(&Bytes::from_static(b"ping"), &mut context);
/// block_on(&mut context, written).unwrap().unwrap();
/// let mut got = [0; 4];
/// let mut rust_end = rust_end;
/// futures::executor::block_on(tokio::io::AsyncReadExt::read_exact(&mut rust_end, &mut got))
///     .unwrap();
/// assert_eq!(&got, b"ping");
/// ```
pub fn writable_stream_from_async_write<W>(writer: W, ctx: &mut Context) -> JsResult<JsObject>
where
    W: tokio::io::AsyncWrite + 'static,
{
    super::writable_stream_from_async_write(Compat(Box::pin(writer)), ctx)
}

/// [`writable_stream_from_async_write`] with the choice of when `writer` is flushed (see
/// [`super::writable_stream_from_async_write_with_flush`] and [`super::FlushPolicy`]):
/// [`super::FlushPolicy::OnClose`] suits a `tokio::io::BufWriter` around a socket, whose
/// buffer then fills across chunks and is flushed (and the socket shut down) by `close()`.
///
/// ```
/// use boa_engine::Context;
/// use boa_streams::native::{block_on, tokio::writable_stream_from_async_write_with_flush};
/// use boa_streams::native::{FlushPolicy, StreamWriter};
/// use bytes::Bytes;
///
/// let mut context = Context::default();
/// boa_streams::register(&mut context).unwrap();
/// let (rust_end, js_end) = tokio::io::duplex(64);
/// let buffered = tokio::io::BufWriter::new(js_end);
/// let stream =
///     writable_stream_from_async_write_with_flush(buffered, FlushPolicy::OnClose, &mut context)
///         .unwrap();
/// let writer = StreamWriter::new(&stream, &mut context).unwrap();
/// let written = writer.write_bytes(&Bytes::from_static(b"ping"), &mut context);
/// block_on(&mut context, written).unwrap().unwrap();
/// // Still in the BufWriter: nothing reached the other end yet. Closing flushes it.
/// let closed = writer.close(&mut context);
/// block_on(&mut context, closed).unwrap().unwrap();
/// let mut got = Vec::new();
/// let mut rust_end = rust_end;
/// futures::executor::block_on(tokio::io::AsyncReadExt::read_to_end(&mut rust_end, &mut got))
///     .unwrap();
/// assert_eq!(got, b"ping");
/// ```
pub fn writable_stream_from_async_write_with_flush<W>(
    writer: W,
    flush: super::FlushPolicy,
    ctx: &mut Context,
) -> JsResult<JsObject>
where
    W: tokio::io::AsyncWrite + 'static,
{
    super::writable_stream_from_async_write_with_flush(Compat(Box::pin(writer)), flush, ctx)
}
