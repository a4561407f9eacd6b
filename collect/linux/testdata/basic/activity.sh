set -eu
start=$(date +%s.%N)
dd if=/dev/zero of=/tmp/dcimon-capture/vda.bin bs=1M count=8 conv=fsync status=none
dd if=/dev/urandom of=/dev/loop0p1 bs=64k count=64 oflag=direct status=none
dd if=/dev/loop1p1 of=/dev/null bs=64k count=32 iflag=direct status=none
python3 - <<'PY'
import socket, threading
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(1)
port = srv.getsockname()[1]
def serve():
    c, _ = srv.accept()
    n = 0
    while True:
        b = c.recv(65536)
        if not b: break
        n += len(b)
    c.sendall(b"ok %d" % n); c.close()
t = threading.Thread(target=serve); t.start()
cl = socket.create_connection(("127.0.0.1", port))
cl.sendall(b"x" * (1 << 20)); cl.shutdown(socket.SHUT_WR)
print("loopback:", cl.recv(100).decode()); cl.close(); t.join(); srv.close()
PY
now=$(date +%s.%N)
rest=$(python3 -c "print(max(0, 1.0 - ($now - $start)))")
sleep "$rest"
