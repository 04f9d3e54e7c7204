import socket, threading, time
PORT = 47811
srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", PORT)); srv.listen(1)
def serve():
    c, _ = srv.accept()
    total = 0
    while True:
        d = c.recv(1000)
        if not d: break
        c.sendall(d[::-1]); total += len(d)
    c.close()
t = threading.Thread(target=serve); t.start()
time.sleep(0.2)
s = socket.create_connection(("127.0.0.1", PORT))
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
for i in range(6):
    s.sendall(bytes((i * 7 + j) % 256 for j in range(700 + 150 * i)))
    got = 0
    while got < 700 + 150 * i:
        got += len(s.recv(4096))
    time.sleep(0.02)
s.shutdown(socket.SHUT_WR); s.recv(10); s.close(); t.join()
