import type { LocationEstimateResponse, LocationsResponse, PlacesStatusResponse } from '@leadforge/contracts';
import { api } from '../api/client';

export const locationKeys = {
  matches: (q: string) => ['locations', q] as const,
  estimate: (location: string, industry: string) => ['locations', 'estimate', location, industry] as const,
  placesStatus: ['places-status'] as const,
};

export async function fetchLocations(q: string, signal?: AbortSignal): Promise<LocationsResponse> {
  const { data } = await api.get<LocationsResponse>('/api/locations', { params: { q }, signal });
  return data;
}

export async function fetchEstimate(location: string, industry: string, signal?: AbortSignal): Promise<LocationEstimateResponse> {
  const { data } = await api.get<LocationEstimateResponse>('/api/locations/estimate', { params: { location, industry }, signal });
  return data;
}

export async function fetchPlacesStatus(): Promise<PlacesStatusResponse> {
  const { data } = await api.get<PlacesStatusResponse>('/api/places-status');
  return data;
}
