'use strict';
// The bare baseline: Express with one GET route and nothing else, in its own process like a service.
const express = require('express');

const app = express();
app.disable('x-powered-by');
app.get('/hello', (_req, res) => {
  res.json({ status: 'ok' });
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
