#!/usr/bin/env bash
# Builds the Hummingbird upload service, starts it on a free loopback port and sends it real
# requests with curl: an image, a text file, a decompression bomb (a PNG whose header states
# 100,000 x 100,000 pixels), an endless body (`yes`, chunked, no length) and an empty one. Prints
# each status code and fails on any that is not the one expected.
#
#   bash Examples/HummingbirdUpload/exercise.sh       (make example-upload)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$here"
command -v curl >/dev/null || { echo "exercise: curl is not installed" >&2; exit 1; }
echo "exercise: swift build (Hummingbird and SwiftNIO: a few minutes the first time)"
swift build --scratch-path .build 2>&1 | grep -E "error|Build complete" || true
server="$(swift build --scratch-path .build --show-bin-path)/upload-server"
[[ -x "$server" ]] || { echo "exercise: the server was not built" >&2; exit 1; }

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
work="$(mktemp -d)"
"$server" "$port" > "$work/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/" && break
    sleep 0.1
done

# A PNG that states 100,000 x 100,000 pixels: the signature and an IHDR chunk (with its CRC).
python3 - "$work/bomb.png" <<'PY'
import struct, sys, zlib
ihdr = struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0)
chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk + b"\0" * 4096)
PY

failures=0
check() {  # name, expected status, curl arguments...
    local name=$1 expected=$2
    shift 2
    local started status elapsed
    started=$(date +%s.%N)
    status=$(curl -s -o "$work/body" -w '%{http_code}' --max-time 20 -H 'Expect:' -X POST "$@" "http://127.0.0.1:$port/upload" || true)
    elapsed=$(python3 -c "print(f'{$(date +%s.%N) - $started:.2f}')")
    printf '%-34s %s (expected %s) in %ss  %s\n' "$name" "$status" "$expected" "$elapsed" "$(head -c 160 "$work/body")"
    [[ "$status" == "$expected" ]] || failures=$((failures + 1))
}
check "an image (TestImages/png/alpha)" 201 --data-binary "@$root/TestImages/png/alpha" -H 'Content-Type: application/octet-stream'
check "a JPEG, chunked, no length" 201 -T "$root/TestImages/jpeg/baseline" -H 'Transfer-Encoding: chunked'
check "a text file" 415 --data-binary "@$root/TestImages/text/plain"
check "a PDF" 415 --data-binary "@$root/TestImages/document/pdf-pillow"
check "a bomb (100000 x 100000 PNG)" 413 --data-binary "@$work/bomb.png"
check "an endless body (yes, chunked)" 415 -T - -H 'Transfer-Encoding: chunked' < <(yes)
check "an empty body" 400 --data-binary ''
echo "exercise: $((7 - failures)) of 7 as expected"
exit $(( failures > 0 ))
