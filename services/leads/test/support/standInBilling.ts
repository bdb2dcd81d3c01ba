import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { asyncRequestListener } from '@leadforge/testing';
import { insufficientCreditsDetail, type ReservationResponse } from '@leadforge/contracts';

interface Reservation extends ReservationResponse {
  key: string;
}

export interface StandInBilling {
  url: string;
  setBalance(userId: string, credits: number): void;
  balanceOf(userId: string): number;
  reservations(): Reservation[];
  /** While true, every call fails as if billing were down (no answer). */
  down: boolean;
  /** This many next calls are carried out but their answer is lost (the connection drops). */
  loseAnswers: number;
  /** Requests seen, by route, for assertions about who called what. */
  calls: string[];
  /** When set, awaited before a hold is made: lets a test act while a search waits for its credits. */
  beforeHold: (() => Promise<void>) | null;
  close(): Promise<void>;
}

/**
 * Billing's internal reservation API as the contract describes it (packages/contracts/src/internal/billing.ts):
 * holds take credits from the balance at once, settle charges up to the amount and gives the rest back,
 * release gives everything back, each idempotent; a short balance answers 402 with the spec's detail.
 * Holds run one at a time, like billing's row lock, so a balance can never go below zero.
 */
export async function startStandInBilling(internalToken: string): Promise<StandInBilling> {
  const balances = new Map<string, number>();
  const byId = new Map<string, Reservation>();
  const byKey = new Map<string, Reservation>();
  const calls: string[] = [];
  const sockets = new Set<import('node:net').Socket>();

  const answer = (r: Reservation): ReservationResponse => ({
    reservation_id: r.reservation_id, user_id: r.user_id, amount: r.amount, status: r.status, charged: r.charged, balance: balances.get(r.user_id) ?? 0,
  });

  const state: StandInBilling = {
    url: '',
    down: false,
    loseAnswers: 0,
    calls,
    beforeHold: null,
    setBalance: (userId, credits) => { balances.set(userId, credits); },
    balanceOf: (userId) => balances.get(userId) ?? 0,
    reservations: () => [...byId.values()],
    close: () => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };

  const server = http.createServer(asyncRequestListener(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const lose = state.loseAnswers > 0;
    if (lose) state.loseAnswers--;
    const send = (status: number, body: unknown) => {
      if (lose) return req.socket.destroy();
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = req.url ?? '';
    calls.push(`${req.method} ${url}`);
    if (state.down) return req.socket.destroy();
    if (req.headers['x-internal-token'] !== internalToken) return send(403, { detail: 'Internal route: service token required' });
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : {};

    let match;
    if (req.method === 'GET' && (match = url.match(/^\/internal\/balances\/([^/]+)$/))) {
      return send(200, { user_id: match[1], balance: balances.get(match[1]) ?? 0 });
    }
    if (req.method === 'POST' && url === '/internal/reservations') {
      await state.beforeHold?.();
      const existing = byKey.get(body.idempotency_key);
      if (existing) return send(200, answer(existing));
      const have = balances.get(body.user_id) ?? 0;
      if (have < body.amount) return send(402, { detail: insufficientCreditsDetail(have, body.amount), code: 'insufficient_credits' });
      balances.set(body.user_id, have - body.amount);
      const r: Reservation = { reservation_id: crypto.randomUUID(), user_id: body.user_id, amount: body.amount, status: 'held', charged: 0, balance: 0, key: body.idempotency_key };
      byId.set(r.reservation_id, r);
      byKey.set(r.key, r);
      return send(201, answer(r));
    }
    if (req.method === 'POST' && (match = url.match(/^\/internal\/reservations\/([^/]+)\/(settle|release)$/))) {
      const r = byId.get(match[1]);
      if (!r) return send(404, { detail: 'Reservation not found' });
      const charge = match[2] === 'settle' ? body.charge : 0;
      if (r.status === 'held') {
        if (charge > r.amount) return send(400, { detail: 'charge exceeds the reservation' });
        r.status = match[2] === 'settle' ? 'settled' : 'released';
        r.charged = charge;
        balances.set(r.user_id, (balances.get(r.user_id) ?? 0) + r.amount - charge);
      }
      return send(200, answer(r));
    }
    return send(404, { detail: 'Not found' });
  }));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
