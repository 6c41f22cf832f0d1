namespace Lines;

public static class Sample
{
    public static int Add(int a, int b)
    {
        int c = a + b; // line: add
        return c;
    }

    public static int Loop(int n)
    {
        int s = 0;
        for (int i = 0; i < n; i++)
        {
            s += i * 3; // line: loop body
        }
        return s;
    }

    public static void Throw(string what)
    {
        throw new InvalidOperationException(what); // line: throw
    }
}
