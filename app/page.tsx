export default function Home() {
  return <main>Coffre</main>;
}
