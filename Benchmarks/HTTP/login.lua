-- wrk script: POST /api/auth/login with the demo admin's right password (a bcrypt check at the
-- server's cost each time): the login storm of Benchmarks/http.sh.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"email":"admin@acme.test","password":"correct horse battery"}'
