'use strict';
// The bare baseline of a submission: Express parsing a JSON body and one INSERT of it, with a pool of the size a
// service uses, in its own process like a service. DATABASE_URL names a database the caller created.
const express = require('express');
const { Pool } = require('pg');

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_MAX ?? 10),
});
const app = express();
app.disable('x-powered-by');
app.use(express.json());
app.get('/health', (_req, res) => {
  res.json({ status: 'ok' });
});
app.post('/submit', async (req, res) => {
  try {
    const { rows } = await pool.query('INSERT INTO submissions (body) VALUES ($1) RETURNING id', [req.body]);
    res.status(201).json({ id: rows[0].id });
  } catch (err) {
    res.status(500).json({ error: String(err) });
  }
});
pool
  .query('CREATE TABLE IF NOT EXISTS submissions (id bigserial PRIMARY KEY, body jsonb NOT NULL)')
  .then(() => {
    const server = app.listen(Number(process.env.PORT), '127.0.0.1');
    process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
  });
