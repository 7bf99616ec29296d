"""`wl serve` under load and abuse: many clients at once, an abusive request, a client that walks away.

1. Connection resets, with the same 200 clients (threads released together by a barrier) against an in-process replay
   server: once with the standard library's listen backlog (5, the baseline: what `wl serve` had), once with ours.
2. A real `wl serve SIZE` process (a model of a named size built from scratch: no download) answers a small completion
   (greedy, `--small-tokens` tokens): sequentially (the baseline latency), then from `--clients` clients at once. Figures:
   answers by status, resets (a connection closed without an answer), p50 and p99 latency of the answered ones.
3. Abuse, on the same process: the request of issue 17 (64 prompts x n=64 x 2,000 tokens: refused at once), a request at
   the work cap whose client hangs up after 1 s (cancelled: the model is free again at once), then a long request
   (4 prompts x n=16 x `--long-tokens`) that runs while `--fair-clients` small clients ask (how they are served while
   the model is busy). The server's memory is read from /proc: RSS when idle (the baseline), peak RSS (VmHWM) and RSS
   after the abuse.
Usage: python benchmarks/serve_load.py [--save] [--clients 200] [--size tiny] [--threads 1] [--small-tokens 8]
                                       [--fair-clients 20] [--long-tokens 256] [--no-fair]
"""
import argparse, http.client, inspect, json, socket, sys, threading, time
sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
from collections import Counter
from _common import report

def ask(port: int, body: dict, timeout: float = 300.0) -> tuple:
    "(status or the exception's name, seconds) of one POST /v1/completions on a fresh connection."
    t0 = time.perf_counter()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        c.request("POST", "/v1/completions", json.dumps(body), {"Content-Type": "application/json"})
        r = c.getresponse(); json.loads(r.read()); c.close()
        return r.status, time.perf_counter() - t0
    except Exception as e: return type(e).__name__, time.perf_counter() - t0

def crowd(port: int, body: dict, n: int) -> list[tuple]:
    "`n` clients asking at once (released together); their (status, seconds)."
    out, gate = [None] * n, threading.Barrier(n)
    def one(i): gate.wait(); out[i] = ask(port, body)
    ts = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in ts: t.start()
    for t in ts: t.join()
    return out

def pct(xs: list[float], q: float) -> float | None:
    if not xs: return None
    xs = sorted(xs); return round(xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))], 3)

def summary(results: list[tuple], prefix: str) -> dict:
    counts = Counter(str(s) for s, _ in results)
    ok = [t for s, t in results if s == 200]
    return {f"{prefix}_answered_by_status": {k: v for k, v in sorted(counts.items()) if k.isdigit()},
            f"{prefix}_resets": sum(v for k, v in counts.items() if not k.isdigit()),
            f"{prefix}_no_answer_kinds": {k: v for k, v in counts.items() if not k.isdigit()},
            f"{prefix}_p50_s": pct(ok, 0.5), f"{prefix}_p99_s": pct(ok, 0.99)}

def backlog_resets(clients: int) -> dict:
    "Resets of `clients` simultaneous clients against an in-process replay server: the stdlib backlog (5) and ours."
    from wandering_light.backends import ReplayBackend
    from wandering_light.serve import HTTPServer, OpenAIServer
    out = {}
    for name, backlog in (("stdlib_backlog_5", 5), ("wl_serve_backlog", HTTPServer.request_queue_size)):
        cls = type("Server", (HTTPServer,), {"request_queue_size": backlog})
        httpd = cls(OpenAIServer(ReplayBackend([{"text": " inc"}])), port=0)
        t = threading.Thread(target=httpd.serve_forever, daemon=True); t.start()
        res = crowd(httpd.server_address[1], {"model": "replay", "prompt": "x"}, clients)
        httpd.shutdown(); t.join(10); httpd.server_close()
        out[f"replay_{name}_resets"] = sum(1 for s, _ in res if s != 200)
    return out

def memory(pid: int) -> dict:
    "RSS and peak RSS (MB) of a process, from /proc."
    f = dict(l.split(":", 1) for l in open(f"/proc/{pid}/status").read().splitlines() if ":" in l)
    return {k: round(int(f[k].split()[0]) / 1024, 1) for k in ("VmRSS", "VmHWM")}

def abandon(port: int, body: dict, after: float):
    "Send a request and hang up after `after` seconds without reading the answer."
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sk:
        data = json.dumps(body).encode()
        sk.sendall(b"POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(data), data))
        time.sleep(after)

def stats(port: int) -> dict:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30); c.request("GET", "/stats")
    return json.loads(c.getresponse().read())["requests"]

def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--size", default="tiny")
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads of the server")
    ap.add_argument("--small-tokens", type=int, default=8)
    ap.add_argument("--fair-clients", type=int, default=20)
    ap.add_argument("--long-tokens", type=int, default=256, help="max_tokens of the long request (4 prompts x n=16)")
    ap.add_argument("--no-fair", action="store_true", help="skip the long request with small clients beside it")
    a = ap.parse_args(argv)
    from wandering_light.serve import OpenAIServer, ServerProcess
    cap = inspect.signature(OpenAIServer).parameters["max_request_tokens"].default
    figures = backlog_resets(a.clients)
    small = {"model": a.size, "prompt": "Input: [1, 2, 3]\nOutput:", "max_tokens": a.small_tokens, "temperature": 0}
    at_cap = {"model": a.size, "prompt": ["x"] * 4, "n": 16, "max_tokens": cap // 64, "temperature": 1.0, "ignore_eos": True}
    long = {**at_cap, "max_tokens": a.long_tokens}
    with ServerProcess([a.size, "--threads", a.threads]) as server:
        port, pid = server.port, server.proc.pid
        ask(port, small)                                                      # warm-up
        seq = [ask(port, small)[1] for _ in range(20)]
        figures.update(small_completion_tokens=a.small_tokens, clients=a.clients, max_request_tokens=cap,
                       baseline_sequential_p50_s=pct(seq, 0.5), baseline_sequential_p99_s=pct(seq, 0.99))
        t0 = time.perf_counter()
        figures.update(summary(crowd(port, small, a.clients), "load"))
        figures["load_wall_s"] = round(time.perf_counter() - t0, 2)
        figures["baseline_idle_rss_mb"] = memory(pid)["VmRSS"]
        s, dt = ask(port, {"model": a.size, "prompt": ["x"] * 64, "n": 64, "max_tokens": 2000, "temperature": 1.0})
        figures.update(issue_request_status=s, issue_request_answer_s=round(dt, 3))
        t0 = time.perf_counter()
        abandon(port, at_cap, 1.0)
        s, dt = ask(port, small)
        figures.update(after_abandoned_small_status=s, after_abandoned_small_latency_s=round(dt, 3),
                       abandoned_requests_cancelled=stats(port).get("cancelled", 0))
        if not a.no_fair:
            big = []
            t = threading.Thread(target=lambda: big.append(ask(port, long))); t.start(); time.sleep(0.5)
            figures.update(summary(crowd(port, small, a.fair_clients), "beside_long_request"))
            t.join()
            figures.update(long_request_tokens=64 * a.long_tokens, long_request_status=big[0][0], long_request_s=round(big[0][1], 2))
        m = memory(pid)
        figures.update(peak_rss_mb=m["VmHWM"], rss_after_abuse_mb=m["VmRSS"])
    report("serve_load", figures, argv, notes={
        "baselines": "resets: replay_stdlib_backlog_5_resets (the same clients, the standard library's backlog); latency: "
                     "baseline_sequential_* (one client at a time); memory: baseline_idle_rss_mb (before any abuse). "
                     "Issue 17 measured 41-55 resets of 200 and memory growing from 400 to 790 MB after the abusive request.",
        "fairness": "one request runs on the model at a time; small requests beside a long request wait for it "
                    "(or get 503 after --queue-timeout)"})

if __name__ == "__main__": main(sys.argv[1:])
