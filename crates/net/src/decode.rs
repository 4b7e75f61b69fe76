//! A received body decoded per its `Content-Encoding`, pulled by its reader.

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context as TaskContext, Poll};

use bytes::Bytes;
use hyper::body::{Body, Frame};

use crate::body::BoxError;

/// The most encoded bytes given to a decoder at once. DEFLATE inflates at most about
/// 1032:1, so one step of a decompression bomb yields at most about 4 MiB, whatever the
/// size of the frame the connection delivered.
const DECODE_INPUT_SLICE: usize = 4 * 1024;

/// Decoded bytes gathered into one frame (small decoder outputs are joined up to at least
/// this size, so an ordinary text body is not handed to the script in small pieces).
const DECODED_FRAME: usize = 64 * 1024;

/// Decoder calls per step at most (bounded work per poll whatever the input).
const STEP_CALLS: usize = 256;

/// One coding's decoder and the input it has not taken yet.
struct Stage {
    decoder: boa_compression::Decoder,
    pending: VecDeque<Bytes>,
}

/// A body decoded per its `Content-Encoding` (the codings in the order they were applied;
/// decoded last to first) with boa_compression's [`Decoder`](boa_compression::Decoder), the
/// decompressor `DecompressionStream` runs.
///
/// Decoding is pulled by the reader: a frame of the encoded body is taken only when every
/// decoded byte before it has been handed out, and it is decoded a slice at a time
/// ([`DECODE_INPUT_SLICE`]), so what is held ahead of the reader is bounded by the slice's
/// worst expansion, not by the ratio of the whole frame (a decompression bomb). Dropping the
/// body (the stream cancelled) drops the connection's body, so decoding stops there.
pub(crate) struct Decoded<B> {
    inner: Pin<Box<B>>,
    /// The stages, the outermost coding (decoded first) first.
    stages: Vec<Stage>,
    /// Decoded frames not yet handed out.
    ready: VecDeque<Bytes>,
    /// The encoded body ended.
    ended: bool,
    /// Finished (the end checked, or an error returned): nothing more is produced.
    done: bool,
}

impl<B> Decoded<B> {
    /// `body` decoded for `codings` (the `Content-Encoding` list, e.g. `["gzip"]`); `None`
    /// if a coding is not `gzip`, `x-gzip` or `deflate` (the body is then left encoded, as
    /// undici does), or if there is none.
    pub(crate) fn new(body: B, codings: &[String]) -> Option<Self> {
        let mut stages = Vec::new();
        for coding in codings.iter().rev() {
            let format = match coding.as_str() {
                "gzip" | "x-gzip" => "gzip",
                "deflate" => "deflate",
                _ => return None,
            };
            stages.push(Stage {
                decoder: boa_compression::Decoder::new(format)?,
                pending: VecDeque::new(),
            });
        }
        if stages.is_empty() {
            return None;
        }
        Some(Self {
            inner: Box::pin(body),
            stages,
            ready: VecDeque::new(),
            ended: false,
            done: false,
        })
    }

    fn has_pending(&self) -> bool {
        self.stages.iter().any(|s| !s.pending.is_empty())
    }

    /// Decode pending input, a slice at a time and the innermost stage first, until about
    /// [`DECODED_FRAME`] bytes are ready or no input is left; queue them as frames.
    fn step(&mut self) -> Result<(), String> {
        let last = self.stages.len().saturating_sub(1);
        let mut out: Vec<Vec<u8>> = Vec::new();
        let mut out_len = 0;
        for _ in 0..STEP_CALLS {
            let Some(i) = (0..self.stages.len())
                .rev()
                .find(|&i| self.stages.get(i).is_some_and(|s| !s.pending.is_empty()))
            else {
                break;
            };
            let Some(stage) = self.stages.get_mut(i) else {
                break;
            };
            let Some(front) = stage.pending.front_mut() else {
                break;
            };
            let input = front.split_to(front.len().min(DECODE_INPUT_SLICE));
            if front.is_empty() {
                stage.pending.pop_front();
            }
            let pieces = stage.decoder.decode(&input)?;
            if i == last {
                for piece in pieces.into_iter().filter(|p| !p.is_empty()) {
                    out_len += piece.len();
                    out.push(piece);
                }
                if out_len >= DECODED_FRAME {
                    break;
                }
            } else if let Some(next) = self.stages.get_mut(i + 1) {
                next.pending.extend(
                    pieces
                        .into_iter()
                        .filter(|p| !p.is_empty())
                        .map(Bytes::from),
                );
            }
        }
        // Join consecutive pieces into frames of at least DECODED_FRAME bytes (at most
        // twice that: the decoder's pieces are at most 64 KiB) but the last.
        let mut current: Vec<u8> = Vec::new();
        for piece in out {
            if current.is_empty() {
                current = piece;
            } else if current.len() < DECODED_FRAME {
                current.extend_from_slice(&piece);
            } else {
                self.ready
                    .push_back(Bytes::from(std::mem::replace(&mut current, piece)));
            }
        }
        if !current.is_empty() {
            self.ready.push_back(Bytes::from(current));
        }
        Ok(())
    }

    /// The end of the encoded body: every decoder must have reached its end (an inner
    /// decoder's end is checked after the outer ones flushed into it).
    fn finish(&mut self) -> Result<(), String> {
        for stage in &mut self.stages {
            stage.decoder.finish()?;
        }
        Ok(())
    }

    /// Stop with `e`: nothing more is produced.
    fn fail(&mut self, e: String) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        self.done = true;
        self.ready.clear();
        for stage in &mut self.stages {
            stage.pending.clear();
        }
        Poll::Ready(Some(Err(format!("Content-Encoding: {e}").into())))
    }
}

impl<B> Body for Decoded<B>
where
    B: Body<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        // Bounded per poll: a peer sending frames that decode to nothing yields back.
        for _ in 0..64 {
            if let Some(piece) = this.ready.pop_front() {
                return Poll::Ready(Some(Ok(Frame::data(piece))));
            }
            if this.done {
                return Poll::Ready(None);
            }
            if this.has_pending() {
                if let Err(e) = this.step() {
                    return this.fail(e);
                }
                continue;
            }
            if this.ended {
                if let Err(e) = this.finish() {
                    return this.fail(e);
                }
                this.done = true;
                return Poll::Ready(None);
            }
            // Everything before it handed out: take the next encoded frame.
            match this.inner.as_mut().poll_frame(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => this.ended = true,
                Poll::Ready(Some(Err(e))) => {
                    this.done = true;
                    return Poll::Ready(Some(Err(e.into())));
                }
                Poll::Ready(Some(Ok(frame))) => {
                    if let Ok(data) = frame.into_data() {
                        if let Some(first) = this.stages.first_mut() {
                            if !data.is_empty() {
                                first.pending.push_back(data);
                            }
                        }
                    }
                }
            }
        }
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    type Frames = http_body_util::StreamBody<
        futures::stream::Iter<std::vec::IntoIter<Result<Frame<Bytes>, BoxError>>>,
    >;

    /// A body of the given frames.
    fn frames(frames: Vec<Bytes>) -> Frames {
        let items: Vec<Result<Frame<Bytes>, BoxError>> =
            frames.into_iter().map(|b| Ok(Frame::data(b))).collect();
        http_body_util::StreamBody::new(futures::stream::iter(items))
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// Poll `body` once (the test bodies never return Pending).
    fn next<B: Body<Data = Bytes, Error = BoxError> + Unpin>(
        body: &mut B,
    ) -> Option<Result<Bytes, String>> {
        let waker = futures::task::noop_waker();
        let mut cx = TaskContext::from_waker(&waker);
        for _ in 0..1000 {
            match Pin::new(&mut *body).poll_frame(&mut cx) {
                Poll::Ready(None) => return None,
                Poll::Ready(Some(Err(e))) => return Some(Err(e.to_string())),
                Poll::Ready(Some(Ok(f))) => return Some(Ok(f.into_data().unwrap_or_default())),
                Poll::Pending => continue,
            }
        }
        panic!("no frame after 1000 polls")
    }

    #[test]
    fn a_bomb_in_one_frame_is_decoded_as_it_is_read() {
        // 64 MiB of zeros compresses to about 64 KiB: one frame. Each frame handed out is at
        // most twice DECODED_FRAME bytes and what is queued ahead stays within one step's
        // output.
        let size = 64 << 20;
        let bomb = gzip(&vec![0u8; size]);
        let mut body = Decoded::new(frames(vec![Bytes::from(bomb)]), &["gzip".into()]).unwrap();
        let mut total = 0;
        let mut max_queued = 0;
        while let Some(frame) = next(&mut body) {
            let frame = frame.unwrap();
            assert!(frame.len() <= 2 * DECODED_FRAME);
            assert!(frame.iter().all(|b| *b == 0));
            total += frame.len();
            let queued: usize = body.ready.iter().map(Bytes::len).sum();
            max_queued = max_queued.max(queued);
        }
        assert_eq!(total, size);
        assert!(
            max_queued <= 8 << 20,
            "{max_queued} bytes decoded ahead of the reader"
        );
    }

    #[test]
    fn nested_codings_and_small_outputs_are_joined() {
        let text: Vec<u8> = (0..300_000u32).flat_map(|i| i.to_le_bytes()).collect();
        let twice = gzip(&gzip(&text));
        // Delivered in 1 KiB frames.
        let pieces: Vec<Bytes> = twice.chunks(1024).map(Bytes::copy_from_slice).collect();
        let received = pieces.len();
        let mut body = Decoded::new(frames(pieces), &["gzip".into(), "gzip".into()]).unwrap();
        let mut out = Vec::new();
        let mut count = 0;
        while let Some(frame) = next(&mut body) {
            out.extend_from_slice(&frame.unwrap());
            count += 1;
        }
        assert_eq!(out, text);
        // Not one frame per 4 KiB slice decoded: about one per DECODED_FRAME bytes, plus
        // short ones where a step ran out of received input or overshot a frame.
        assert!(
            count <= 2 * (received + text.len() / DECODED_FRAME + 1),
            "{count} frames of {received} received"
        );
    }

    #[test]
    fn corrupt_and_truncated_bodies_error_once() {
        let good = gzip(&vec![7u8; 100_000]);
        let mut trailing = good.clone();
        trailing.extend_from_slice(b"junk");
        let truncated = good[..good.len() / 2].to_vec();
        for (input, want) in [
            (trailing, "after the end"),
            (truncated, "ended unexpectedly"),
        ] {
            let mut body =
                Decoded::new(frames(vec![Bytes::from(input)]), &["gzip".into()]).unwrap();
            let mut error = None;
            while let Some(frame) = next(&mut body) {
                if let Err(e) = frame {
                    error = Some(e);
                    break;
                }
            }
            let error = error.expect("an error");
            assert!(error.contains(want), "{error}");
            assert!(next(&mut body).is_none());
        }
        assert!(Decoded::new(frames(vec![]), &["br".into()]).is_none());
        assert!(Decoded::new(frames(vec![]), &[]).is_none());
    }
}
