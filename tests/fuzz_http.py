"""Fuzzing `wl serve` (surface `http`): hostile requests, answered in this process by `OpenAIServer.handle` (over a
replay backend, and over a tiny local model with a small work cap, so that sampling arguments reach a real tokenizer
and generator) and over real sockets by a `wl serve --replay` process.

The promise checked: every request gets an answer within the limit, with a status that is a success, a 4xx, or a
clean 503 (busy, cancelled), and a JSON body (an error in OpenAI's shape, its message one line); never a 500, a reset
connection, a hang, or an exception in the caller; and the server process stays up.
"""
from __future__ import annotations
import atexit, http.client, json, math, shutil, socket, tempfile
from pathlib import Path
from hypothesis import strategies as st
from fuzzing import Violation, surface

KEY = "k3y"
RULES = [{"text": " double, inc"}, {"match": "slow", "text": " inc", "delay_s": 0.2},
         {"match": "#q:", "text": " yes", "top_logprobs": {" yes": math.log(0.7), " no": math.log(0.3)}}]
ROUTES = ["/v1/completions", "/v1/chat/completions", "/v1/models", "/health", "/stats"]
_state: dict = {}

# ---- the servers under test (made once per process; the real one is stopped at exit by `LocalServer`) ----

def _replay_server():
    if "replay" not in _state:
        from wandering_light.backends import ReplayBackend
        from wandering_light.serve import OpenAIServer
        _state["replay"] = OpenAIServer(ReplayBackend(RULES), api_key=KEY)
    return _state["replay"]

def _local_server():
    if "local" not in _state:
        from wandering_light.backends import LocalBackend
        from wandering_light.models import build_model, build_tokenizer
        from wandering_light.serve import OpenAIServer
        tok = build_tokenizer()
        _state["local"] = OpenAIServer(LocalBackend(build_model("tiny", tok, seed=0), tok, "tiny"), max_request_tokens=64)
    return _state["local"]

def _process():
    p = _state.get("process")
    if p is None or p.proc.poll() is not None:
        from wandering_light.serve import ServerProcess
        if "dir" not in _state: _state["dir"] = tempfile.mkdtemp(prefix="fuzz_http_"); atexit.register(close)
        rules = Path(_state["dir"]) / "rules.jsonl"
        rules.write_text("".join(json.dumps(r) + "\n" for r in RULES))
        p = _state["process"] = ServerProcess(["--replay", rules, "--api-key", KEY])
    return p

def close():
    "Stop the `wl serve` process and remove its rules directory (a test worker's exit may skip atexit hooks)."
    p = _state.pop("process", None)
    if p is not None: p.close()
    d = _state.pop("dir", None)
    if d: shutil.rmtree(d, ignore_errors=True)

# ---- hostile values ----

big_ints = st.one_of(st.integers(-2**70, 2**70), st.integers(60, 4200).map(lambda k: 10**k),
                     st.sampled_from([2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, -2**63 - 1, 0, -1]))
floats = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([1e308, -0.0, 5e-324, 2.0000001]))
texts = st.one_of(st.text(max_size=30), st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=3),
                  st.integers(1000, 200_000).map(lambda k: "[1] " * (k // 4)), st.sampled_from(["", "\x00", "\n" * 50, "slow", "#q: yes?"]))
scalars = st.one_of(big_ints, floats, texts, st.booleans(), st.none())
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=10)
deep = st.builds(lambda d, kind: (["x"] if kind else {"a": 1}) if d == 0 else _nest(d, kind), st.integers(0, 3000), st.booleans())

def _nest(d: int, as_list: bool):
    v: object = "x"
    for _ in range(d): v = [v] if as_list else {"k": v}
    return v

FIELDS = {"n": st.one_of(st.integers(-2, 70), big_ints), "max_tokens": st.one_of(st.integers(-1, 3000), big_ints),
          "max_completion_tokens": st.integers(-1, 5000), "temperature": st.one_of(floats, st.integers(-3, 3)),
          "top_p": floats, "seed": big_ints, "logprobs": st.one_of(st.integers(-1, 25), st.booleans()),
          "top_logprobs": st.integers(-1, 25), "stop": st.one_of(texts, st.lists(texts, max_size=6)),
          "ignore_eos": st.one_of(st.booleans(), scalars), "stream": st.booleans(), "echo": st.booleans(),
          "best_of": st.integers(-1, 70), "suffix": texts}
prompts = st.one_of(texts, st.lists(texts, max_size=70), st.lists(big_ints, max_size=3), deep, values)
messages = st.one_of(st.lists(st.fixed_dictionaries({"role": st.sampled_from(["user", "system", "assistant", "tool", "x"]),
                                                     "content": st.one_of(texts, st.lists(st.fixed_dictionaries(
                                                         {"type": st.just("text"), "text": texts}), max_size=3), values)}),
                              max_size=4), values, deep)

@st.composite
def request_bodies(draw) -> dict:
    "A request object: mostly well-formed, each field sometimes hostile (wrong type, out of range, huge, nested)."
    body = {"model": draw(st.one_of(st.just("MODEL"), st.just("MODEL"), st.just("MODEL"), values))}
    if draw(st.booleans()): body["prompt"] = draw(prompts)
    else: body["messages"] = draw(messages)
    for k in draw(st.lists(st.sampled_from(sorted(FIELDS)), max_size=5, unique=True)): body[k] = draw(FIELDS[k])
    if draw(st.integers(0, 9)) == 0: body[draw(st.text(max_size=6))] = draw(values)
    return body

def _dumps(body: dict, model: str) -> bytes:
    body = {k: (model if v == "MODEL" and k == "model" else v) for k, v in body.items()}
    try: return json.dumps(body).encode("utf-8", "surrogatepass")
    except (ValueError, RecursionError): return b'{"model": "' + model.encode() + b'", "prompt": ' + b"[" * 5000 + b"]" * 5000 + b"}"

@st.composite
def raw_bodies(draw, model: str) -> bytes:
    "Bytes of a body: a hostile request, cut short, nested deep, a long number, bad UTF-8, or no JSON at all."
    b = _dumps(draw(request_bodies()), model)
    kind = draw(st.sampled_from(["json"] * 6 + ["cut", "deep", "digits", "utf8", "junk"]))
    if kind == "cut": return b[:draw(st.integers(0, max(0, len(b) - 1)))]
    if kind == "deep":
        d = draw(st.integers(20, 200_000)); return b'{"model": "' + model.encode() + b'", "prompt": ' + b"[" * d + b"]" * d + b"}"
    if kind == "digits": return b'{"model": "' + model.encode() + b'", "prompt": "x", "n": ' + b"7" * draw(st.integers(4000, 5000)) + b"}"
    if kind == "utf8": return b'{"model": "' + model.encode() + b'", "prompt": "\xff\xfe\xc3"}'
    if kind == "junk": return draw(st.binary(max_size=200))
    return b

@st.composite
def cases(draw) -> dict:
    "One hostile request, to one of the three servers."
    where = draw(st.sampled_from(["replay", "replay", "local", "wire", "wire"]))
    model = "tiny" if where == "local" else "replay"
    path = draw(st.one_of(st.sampled_from(ROUTES + ["/v1/completions/", "/v1/completions?x=1"]), st.sampled_from(ROUTES),
                          st.text(max_size=20).map(lambda s: "/" + s)))
    method = draw(st.sampled_from(["POST"] * 6 + ["GET"] * 2 + ["PUT", "DELETE", "PATCH", "OPTIONS"]))
    auth = draw(st.sampled_from([f"Bearer {KEY}"] * 4 + [None, "Bearer nope", "Basic x", f"bearer {KEY}", "Bearer " + "é" * 3]))
    case = dict(where=where, path=path, method=method, auth=auth, body=draw(raw_bodies(model)))
    if where == "wire":
        case["framing"] = draw(st.sampled_from(["ok"] * 6 + ["cut", "chunked", "bad_length", "garbled", "http2", "long_header",
                                                           "no_length", "keepalive"]))
    return case

# ---- the checks ----

def _check_answer(status, out, where: str):
    "The promise on one answer: an allowed status, and a JSON body of the right shape."
    if not (200 <= status < 300 or 400 <= status < 500 or status == 503):
        raise Violation("exception", f"{where}: status {status}: {str(out)[:300]}")
    if isinstance(out, (bytes, bytearray)):
        try: out = json.loads(out)
        except ValueError: raise Violation("exception", f"{where}: status {status} with a body that is not JSON: {out[:200]!r}") from None
    if not isinstance(out, dict): raise Violation("exception", f"{where}: status {status}: the body is not a JSON object")
    if status >= 400:
        msg = (out.get("error") or {}).get("message") if isinstance(out.get("error"), dict) else None
        if not isinstance(msg, str) or "\n" in msg or not msg:
            raise Violation("exception", f"{where}: status {status} without a one-line error message: {str(out)[:300]}")

def _wire_bytes(case: dict) -> tuple[bytes, bool]:
    "The raw request of a wire case, and whether the client stops sending after it (a cut body)."
    body, f = case["body"], case["framing"]
    path = case["path"].encode("utf-8", "surrogatepass").replace(b" ", b"%20").replace(b"\r", b"").replace(b"\n", b"")
    line = b"%s %s HTTP/%s\r\n" % (case["method"].encode(), path or b"/", b"2.0" if f == "http2" else b"1.1")
    if f == "garbled": line = b"\x16\x03\x01 hello " + path + b"\r\n"
    head = [b"Host: 127.0.0.1", b"Content-Type: application/json", b"Connection: close"]
    if case["auth"] is not None: head.append(b"Authorization: " + case["auth"].encode("utf-8"))
    if f == "chunked": head.append(b"Transfer-Encoding: chunked"); body = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    elif f == "bad_length": head.append(b"Content-Length: " + (b"-1", b"1_0", b"abc", b"9" * 30, b"\xb2")[len(body) % 5])
    elif f == "cut": head.append(b"Content-Length: %d" % (len(body) + 50))
    elif f != "no_length": head.append(b"Content-Length: %d" % len(body))
    if f == "long_header": head.append(b"X-Pad: " + b"a" * 70_000)
    if f == "keepalive": head.remove(b"Connection: close")
    return line + b"\r\n".join(head) + b"\r\n\r\n" + body, f == "cut"

def _check_wire(case: dict):
    p = _process()
    data, cut = _wire_bytes(case)
    try:
        with socket.create_connection(("127.0.0.1", p.port), timeout=8) as sk:
            try: sk.sendall(data)
            except OSError: pass                              # the server may refuse (and close) before reading it all
            if cut: sk.shutdown(socket.SHUT_WR)
            r = http.client.HTTPResponse(sk); r.begin()
            status, out = r.status, r.read()
    except TimeoutError: raise Violation("hang", "no answer within 8 s") from None
    except (OSError, http.client.HTTPException) as e:
        raise Violation("exception", f"wire: no answer ({type(e).__name__}: {e})"[:300]) from None
    _check_answer(status, out, "wire")
    if p.proc.poll() is not None: raise Violation("exception", f"the server process exited: {p.stderr()[-300:]}")

@surface("http", cases(), limit_s=10.0)
def check(case: dict):
    "One hostile request to `wl serve` (in process or over a socket): an allowed status and a JSON body, in time."
    if case["where"] == "wire": return _check_wire(case)
    srv = _replay_server() if case["where"] == "replay" else _local_server()
    headers = {} if case["auth"] is None else {"Authorization": case["auth"]}
    status, out = srv.handle(case["method"], case["path"], headers, case["body"])
    _check_answer(status, out, case["where"])
